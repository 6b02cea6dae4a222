import { describe, expect, it } from "vitest";
import { accepted, anchorsOf, rejectedWith } from "./support.js";

describe("equation labels at the text width other slides of the deck show", () => {
  it("accepts labels on slides that show no width themselves (a split display, no column at all)", async () => {
    const r = await anchorsOf("eq-slides-shown-width");
    expect(accepted(r)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]);
    for (const label of ["7", "8", "11"])
      expect(r.equations.find((e) => e.label === label)?.side).toBe("right");
  });

  it("still refuses words set flush with that edge, and the superscripts", async () => {
    const r = await anchorsOf("eq-slides-shown-width");
    const flush = rejectedWith(r, "13");
    expect(flush).toHaveLength(1);
    expect(flush[0].reasons).toContain("no-math");
    expect(r.rejectedEquationCandidates.map((c) => c.label).sort()).toEqual(["13", "61", "62"]);
  });
});
