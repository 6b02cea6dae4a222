// A label on a shaded box its display is set on (a slide's block, a theorem box) stands on no
// figure, however close to the box's edge; a small shape holding it, or one cutting through it, is
// a figure's.
import { describe, expect, it } from "vitest";
import { graphicsBeside } from "../../src/layout/equation-rules.js";

const label = { left: 338.5, bottom: 131.5, right: 350.6, top: 142.3 };
const path = (left: number, bottom: number, right: number, top: number) => ({
  kind: "path" as const,
  box: { left, bottom, right, top },
});

describe("graphics beside a label", () => {
  it("a wide shaded box holding the label close to its edge is a background", () => {
    expect(graphicsBeside([path(7.3, 127.9, 355.5, 168.6)], label, 10.9)).toBe(false);
  });

  it("a small shape holding the label is a figure's", () => {
    expect(graphicsBeside([path(330, 128, 356, 146)], label, 10.9)).toBe(true);
  });

  it("a shape cutting through the label is a figure's", () => {
    expect(graphicsBeside([path(7.3, 136, 345, 168.6)], label, 10.9)).toBe(true);
  });
});
