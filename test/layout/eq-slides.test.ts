import { describe, expect, it } from "vitest";
import { accepted, anchorsOf, rejectedWith } from "./support.js";

describe("equation labels on slides with short bullets only", () => {
  it("accepts labels at the text width's right edge that no line of running text reaches", async () => {
    const r = await anchorsOf("eq-slides");
    expect(accepted(r)).toEqual(["1", "2", "3"]);
    for (const e of r.equations) expect(e.side).toBe("right");
  });

  it("still refuses a reference (2) in a bullet's words", async () => {
    const r = await anchorsOf("eq-slides");
    const inBullet = rejectedWith(r, "2").filter((c) => c.page === 2);
    expect(inBullet).toHaveLength(1);
    expect(inBullet[0].reasons).toContain("text-after-label");
  });
});
