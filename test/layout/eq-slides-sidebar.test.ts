import { describe, expect, it } from "vitest";
import { accepted, anchorsOf, rejectedWith } from "./support.js";

describe("equation labels on slides with a sidebar (margins unlike on the two sides)", () => {
  it("accepts labels at the text width's right edge, the displays centred between it and the block's left edge", async () => {
    const r = await anchorsOf("eq-slides-sidebar");
    expect(accepted(r)).toEqual(["1", "2", "3", "4"]);
    for (const e of r.equations) expect(e.side).toBe("right");
  });

  it("still refuses a reference in a bullet and a centred line's (4) short of the labels' edge", async () => {
    const r = await anchorsOf("eq-slides-sidebar");
    expect(rejectedWith(r, "2").filter((c) => c.page === 2)[0]?.reasons).toContain("text-after-label");
    const centred = rejectedWith(r, "4").filter((c) => c.page === 2);
    expect(centred).toHaveLength(1);
    expect(centred[0].reasons).toContain("not-at-column-edge");
  });
});
