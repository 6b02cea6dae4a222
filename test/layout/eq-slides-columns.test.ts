import { describe, expect, it } from "vitest";
import { anchorsOf, rejectedWith } from "./support.js";

describe("equation labels on slides with columns and shaded blocks", () => {
  it("accepts a label at its own column's right edge, words of the other column past the gutter", async () => {
    const r = await anchorsOf("eq-slides-columns");
    const column = r.equations.find((e) => e.label === "1");
    expect(column?.page).toBe(2);
    expect(column?.side).toBe("right");
  });

  it("accepts a label close to the edge of the shaded block its display is set on", async () => {
    const r = await anchorsOf("eq-slides-columns");
    expect(r.equations.find((e) => e.label === "2")?.page).toBe(3);
  });

  it("still refuses a reference in the narrow column's words and a fraction's subscript", async () => {
    const r = await anchorsOf("eq-slides-columns");
    expect(r.equations).toHaveLength(2);
    expect(rejectedWith(r, "1").filter((c) => c.page === 2)).toHaveLength(1);
    expect(rejectedWith(r, "2").filter((c) => c.page === 3)).toHaveLength(1);
  });
});
