import { describe, expect, it } from "vitest";
import { accepted, anchorsOf, rejectedWith } from "./support.js";

const numbered = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));
const trapsOf = async (name: string) =>
  (await anchorsOf(name)).rejectedEquationCandidates.map((c) => c.label).sort();

describe("equation labels of generated beamer decks", () => {
  it("accepts the rows of an aligned display flush with the margin, one filling its line up to its label", async () => {
    const r = await anchorsOf("eq-slides-aligned-wide");
    expect(accepted(r)).toEqual(numbered(13));
    expect(r.equations.filter((e) => e.page === 5).map((e) => e.label)).toEqual(["10", "11", "12"]);
    expect(await trapsOf("eq-slides-aligned-wide")).toEqual(["61", "62", "63"]);
  });

  it("reads a number below its row's line, met only by that row's parentheses, as on a line of its own", async () => {
    const r = await anchorsOf("eq-slides-between-rows");
    expect(accepted(r)).toEqual(numbered(9));
    const split = r.equations.find((e) => e.label === "9");
    // The display it closes is the row above it, and its box holds the row below too.
    expect(split?.equationBox.top).toBeGreaterThan((split?.labelBox.top ?? Infinity) + 5);
    expect(split?.equationBox.bottom).toBeLessThan((split?.labelBox.bottom ?? -Infinity) - 5);
    expect(await trapsOf("eq-slides-between-rows")).toEqual(["61", "62"]);
  });

  it("reads a split display's first row, filling its line and continued under its relation sign, as a display", async () => {
    const r = await anchorsOf("eq-slides-split-wide");
    expect(accepted(r)).toEqual(numbered(7));
    expect(await trapsOf("eq-slides-split-wide")).toEqual(["61"]);
  });

  it("frames a label at the edge the deck's other labels show, past the ragged block's edge as read", async () => {
    const r = await anchorsOf("eq-slides-ragged-edge");
    expect(accepted(r)).toEqual(numbered(11));
    expect(r.equations.find((e) => e.label === "10")?.page).toBe(6);
    expect(await trapsOf("eq-slides-ragged-edge")).toEqual(["61", "62", "63"]);
  });

  it("accepts gather rows filling their line from the margin, and refuses formulas that are list items or carry a word", async () => {
    const r = await anchorsOf("eq-slides-gather-wide");
    expect(accepted(r)).toEqual(numbered(11));
    expect(r.equations.filter((e) => e.page === 7).map((e) => e.label)).toEqual(["9", "10", "11"]);
    expect(await trapsOf("eq-slides-gather-wide")).toEqual([
      "61",
      "62",
      "63",
      "64",
      "65",
      "71",
      "72",
      "73",
      "74",
    ]);
    for (const label of ["71", "72", "73", "74"])
      expect(rejectedWith(r, label).flatMap((c) => c.reasons)).toContain("no-display");
  });

  it("accepts a display filling its line on a slide with a sidebar, and refuses items drawn with a bullet or a numbered ball", async () => {
    const r = await anchorsOf("eq-slides-wide-formula");
    expect(accepted(r)).toEqual(numbered(12));
    expect(r.equations.find((e) => e.label === "12")?.page).toBe(8);
    expect(await trapsOf("eq-slides-wide-formula")).toEqual(["61", "62", "63", "71", "72", "73", "74"]);
  });

  it("reads a number met only by its rows' scripts as standing between them, and its display's box holds both rows", async () => {
    const r = await anchorsOf("eq-slides-split-scripts");
    expect(accepted(r)).toEqual(numbered(10));
    const split = r.equations.find((e) => e.label === "10");
    expect(split?.page).toBe(9);
    // Both rows: the first above the label's middle, the second below it.
    const middle = ((split?.labelBox.bottom ?? 0) + (split?.labelBox.top ?? 0)) / 2;
    expect(split?.equationBox.top).toBeGreaterThan(middle + 8);
    expect(split?.equationBox.bottom).toBeLessThan(middle - 8);
    expect(await trapsOf("eq-slides-split-scripts")).toEqual(["61", "62", "63", "64"]);
  });
});
