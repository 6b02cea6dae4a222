// A display too wide to be centred beside its number, ending in a fraction (lualatex, unicode-math):
// amsmath sets it from the left margin, and the characters on the number's line stop before the
// fraction, so that line alone is neither centred nor indented. A formula filling its line from the
// column's edge is a display: its number is accepted; a line of running text ending in `(17)` is not.
import { describe, expect, it } from "vitest";
import { accepted, anchorsOf, rejectedWith } from "./support.js";

describe("a display filling its line from the column's edge", () => {
  it("accepts its label, and still refuses a number ending a line of running text", async () => {
    const r = await anchorsOf("eq-filled-line");
    expect(accepted(r)).toEqual(["1.1", "1.2"]);
    const one = r.equations.find((e) => e.label === "1.1");
    // The display starts at the text block's left edge, 4 em and more from its number.
    expect(one?.equationBox.left).toBeLessThan(120);
    expect(rejectedWith(r, "17")[0].reasons).toContain("no-display");
  });
});
