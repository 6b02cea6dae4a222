import { describe, expect, it } from "vitest";
import { accepted, anchorsOf } from "./support.js";

describe("equation labels of split displays on slides (the number between the two rows)", () => {
  it("accepts the label whose row meets a denominator and a sum's limit, not a table's cells", async () => {
    const r = await anchorsOf("eq-slides-split");
    expect(accepted(r)).toEqual(["1", "2"]);
    expect(r.rejectedEquationCandidates).toEqual([]);
    for (const e of r.equations) {
      expect(e.side).toBe("right");
      // The display box holds the first row, above the label's row.
      expect(e.equationBox.top).toBeGreaterThan(e.labelBox.top);
    }
  });
});
