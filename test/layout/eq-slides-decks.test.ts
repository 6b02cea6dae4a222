import { describe, expect, it } from "vitest";
import { accepted, anchorsOf } from "./support.js";

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
    // The display it closes is the row above it.
    expect(split?.equationBox.bottom).toBeGreaterThan(split?.labelBox.bottom ?? Infinity);
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
});
