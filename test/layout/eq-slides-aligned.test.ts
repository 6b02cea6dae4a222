import { describe, expect, it } from "vitest";
import { accepted, anchorsOf } from "./support.js";

describe("equation labels on ragged-right slides with a sidebar (a generated deck)", () => {
  it("accepts the last row of an aligned display whose left-hand side is wider than the rows above", async () => {
    const r = await anchorsOf("eq-slides-aligned");
    const last = r.equations.find((e) => e.label === "4");
    expect(last?.page).toBe(2);
    expect(last?.side).toBe("right");
  });

  it("frames a label by the column whose edge it stands at, not a nearby one with as many lines", async () => {
    const r = await anchorsOf("eq-slides-aligned");
    expect(r.equations.find((e) => e.label === "5")?.page).toBe(3);
  });

  it("accepts every numbered display of the deck and none of its traps", async () => {
    const r = await anchorsOf("eq-slides-aligned");
    expect(accepted(r)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]);
    expect(r.rejectedEquationCandidates.map((c) => c.label).sort()).toEqual(["61", "62", "63", "64"]);
  });
});
