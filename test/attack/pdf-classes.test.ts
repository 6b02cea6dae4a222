/** The hostile PDF classes: every class made, the same seed the same files, another seed others. */
import { describe, expect, it } from "vitest";
// @ts-expect-error: the attack suite is plain JavaScript.
import { PDF_CLASSES, structuralVariants } from "../../scripts/attack/pdf-classes.mjs";
// @ts-expect-error: the attack suite is plain JavaScript.
import { rng } from "../../scripts/attack/seeded.mjs";

describe("hostile PDF classes", () => {
  it("takes every class in turn, seeded", () => {
    const names = Object.keys(PDF_CLASSES);
    const count = names.length * 2;
    const a = structuralVariants(count, rng(3));
    const b = structuralVariants(count, rng(3));
    const c = structuralVariants(count, rng(4));
    expect(Object.keys(a)).toHaveLength(count);
    for (const name of names) expect(Object.keys(a).some((k) => k.startsWith(`${name} `))).toBe(true);
    for (const k of Object.keys(a)) {
      expect(Buffer.from(a[k]).equals(Buffer.from(b[k]))).toBe(true);
      expect(Buffer.from(a[k]).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    }
    const differ = Object.keys(a).filter((k) => !Buffer.from(a[k]).equals(Buffer.from(c[k])));
    expect(differ.length).toBeGreaterThan(names.length);
  });
});
