// Displays that are not centred, labels the text layer does not print as "(N)", and the traps
// beside them (fixtures eq-layouts and eq-glyph-parens, built from fixtures/src).
import { describe, expect, it } from "vitest";
import { accepted, anchorsOf, rejectedWith } from "./support.js";

describe("displays that are not centred", () => {
  it("accepts the rows of an aligned display set flush with the column (fleqn without indent)", async () => {
    const r = await anchorsOf("eq-layouts");
    expect(accepted(r).slice(0, 3)).toEqual(["1", "2", "3"]);
    const first = r.equations.find((e) => e.label === "1")!;
    // The first row starts at the column's edge; the rows below open with "=" and "≤".
    expect(first.equationBox.left).toBeLessThan(75);
  });

  it("still rejects a lone flush-left formula whose label is pushed right", async () => {
    expect(rejectedWith(await anchorsOf("eq-layouts"), "21")[0].reasons).toEqual(["not-centred"]);
  });

  it("accepts a label set after a tab inside the column, not at its edge", async () => {
    const r = await anchorsOf("eq-layouts");
    const tabbed = r.equations.find((e) => e.label === "4")!;
    expect(tabbed.side).toBe("right");
    expect(tabbed.labelBox.right).toBeLessThan(450);
  });

  it("accepts a label written Equation (5), and the display stops before the word", async () => {
    const r = await anchorsOf("eq-layouts");
    const named = r.equations.find((e) => e.label === "5")!;
    expect(named.side).toBe("right");
    expect(named.equationBox.right).toBeLessThan(named.labelBox.left - 40);
  });

  it("accepts left-margin numbers of displayed formulas", async () => {
    const r = await anchorsOf("eq-layouts");
    expect(r.equations.filter((e) => e.side === "left").map((e) => e.label)).toEqual(["6", "7"]);
  });

  it("rejects a numbered example sentence with a stray symbol as prose beside the label, and only that", async () => {
    expect(rejectedWith(await anchorsOf("eq-layouts"), "22")[0].reasons).toEqual(["prose-beside-label"]);
  });

  it("rejects a proof case, a superscript and a number in prose as running text", async () => {
    const r = await anchorsOf("eq-layouts");
    for (const label of ["23", "24", "25"]) {
      const [c] = rejectedWith(r, label);
      expect(c.reasons).toEqual(expect.arrayContaining(["no-display", "text-after-label"]));
    }
    expect(accepted(r)).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
  });
});

describe("labels whose parentheses extract as other characters", () => {
  it("reads ð1Þ as (1) where the glyphs are parentheses", async () => {
    const r = await anchorsOf("eq-glyph-parens");
    expect(accepted(r)).toEqual(["1", "2", "3"]);
  });

  it("records the token as printed in the text layer", async () => {
    const [prose] = rejectedWith(await anchorsOf("eq-glyph-parens"), "8");
    expect(prose.printed).toBe("ð8Þ");
    expect(prose.reasons).toContain("text-after-label");
  });

  it("does not read the letters ð and Þ around a number as parentheses", async () => {
    expect(rejectedWith(await anchorsOf("eq-glyph-parens"), "7")).toEqual([]);
  });
});
