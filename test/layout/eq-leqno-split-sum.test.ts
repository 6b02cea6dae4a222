// A split display numbered on the left, its number centred between the two rows, the second row
// opening with a display-style sum or product: the row below the number is the display's, and the
// number's own parentheses (whose baseline lies within reach of the sum glyph's) are not part of it.
import { describe, expect, it } from "vitest";
import { anchorsOf } from "./support.js";

describe("left numbers between the rows of a split display", () => {
  it("accepts them, the display's box beside the number", async () => {
    const record = await anchorsOf("eq-leqno-split-sum");
    expect(record.rejectedEquationCandidates).toEqual([]);
    expect(record.equations.map((e) => [e.label, e.side])).toEqual([
      ["1", "left"],
      ["2", "left"],
      ["3", "left"],
      ["4", "left"],
    ]);
    for (const e of record.equations) {
      // The display stands clear right of its number, a row of it within an em of the number's height.
      expect(e.equationBox.left).toBeGreaterThan(e.labelBox.right + 10);
      expect(e.equationBox.bottom).toBeLessThan(e.labelBox.bottom);
      expect(e.equationBox.top).toBeGreaterThan(e.labelBox.bottom - 10);
    }
  });
});
