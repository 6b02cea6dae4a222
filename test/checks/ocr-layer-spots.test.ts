// A label spot found in an OCR layer's words counts only where the process's own reading has none:
// the same label seen by both engines is read from its crops once.
import { describe, expect, it } from "vitest";
import { spotsBeside } from "../../src/checks/ocr-equations.js";
import type { Box } from "../../src/document/model.js";
import type { OcrLabelSpot } from "../../src/layout/ocr-equation-labels.js";

const spot = (printed: string, labelBox: Box): OcrLabelSpot => ({
  side: "right",
  printed,
  labelBox,
  equationBox: { left: 200, bottom: labelBox.bottom, right: 300, top: labelBox.top },
  cropBoxes: [labelBox],
});

describe("spots of an OCR layer beside the page's own reading", () => {
  it("keeps a layer's spot where the own reading has none, drops one over an own spot", () => {
    const own = [spot("(4a)", { left: 466, bottom: 502, right: 483, top: 513 })];
    const layer = [
      spot("(4a)", { left: 465, bottom: 503, right: 482, top: 514 }),
      spot("(4b)", { left: 466, bottom: 470, right: 483, top: 481 }),
    ];
    expect(spotsBeside(own, layer).map((s) => s.printed)).toEqual(["(4b)"]);
    expect(spotsBeside([], layer)).toHaveLength(2);
    expect(spotsBeside(own, [])).toEqual([]);
  });
});
