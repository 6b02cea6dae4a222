// The strips down a reading's column edges where the labels of rows the reading dropped would stand:
// one at each column's right edge and one at its left, over the height of the page's text, reaching
// a little past the edge and a few em into the column.
import { describe, expect, it } from "vitest";
import { isLabelLikeWord, labelStrips } from "../../src/layout/ocr-equation-labels.js";
import type { OcrWord } from "../../src/ocr/page-ocr.js";

const LEFT = 72;
const RIGHT = 540;

/** A justified line of running text filling the column, 10 pt high, at baseline `y`. */
function prose(y: number, line: number, left = LEFT, right = RIGHT): OcrWord[] {
  const texts = ["Each", "quantity", "below", "is", "defined", "on", "the", "same", "probability", "space."];
  const step = (right - left) / texts.length;
  return texts.map((text, i) => ({
    text,
    box: { left: left + i * step, bottom: y, right: left + (i + 1) * step - 4, top: y + 10 },
    confidence: 90,
    line,
  }));
}

describe("label strips", () => {
  it("runs down each edge of the column, over the height of the page's text", () => {
    const words = [700, 686, 672, 500, 486].flatMap((y, i) => prose(y, i));
    const strips = labelStrips(words);
    expect(strips.map((s) => s.side)).toEqual(["right", "left"]);
    const [right, left] = strips;
    expect(right.column.right).toBeCloseTo(RIGHT - 4, 0);
    expect(right.box.right).toBeGreaterThan(RIGHT);
    expect(right.box.left).toBeLessThan(RIGHT - 40);
    expect(left.box.left).toBeLessThan(LEFT);
    expect(left.box.right).toBeGreaterThan(LEFT + 40);
    for (const s of strips) {
      expect(s.box.top).toBeGreaterThan(710);
      expect(s.box.bottom).toBeLessThan(486);
    }
  });

  it("never reaches past the middle of a gutter into the next column", () => {
    // Two columns, 72-300 and 312-540 (their words end 4 pt short): a strip down the left column's
    // right edge read with the right column's words level with a label comes back mangled.
    const words = [700, 686, 672, 658].flatMap((y, i) => [
      ...prose(y, 2 * i, 72, 304),
      ...prose(y, 2 * i + 1, 312, 544),
    ]);
    const strips = labelStrips(words);
    expect(strips).toHaveLength(4);
    const [leftRight, leftLeft, rightRight, rightLeft] = strips;
    const gutter = (leftRight.column.right + rightLeft.column.left) / 2;
    expect(leftRight.box.right).toBeCloseTo(gutter, 5);
    expect(rightLeft.box.left).toBeCloseTo(gutter, 5);
    // The page's outer edges keep their reach.
    expect(leftLeft.box.left).toBeLessThan(72 - 20);
    expect(rightRight.box.right).toBeGreaterThan(540 + 20);
  });

  it("finds none on a page without running text", () => {
    expect(labelStrips([])).toEqual([]);
    expect(labelStrips(prose(700, 0).slice(0, 3))).toEqual([]);
  });

  it("tells label-like words", () => {
    for (const w of ["(3)", "(4.2b)", "(12),", "(A.1)."]) expect(isLabelLikeWord(w)).toBe(true);
    for (const w of ["3", "(x)", "(a + b)", "f(x)", "(3"]) expect(isLabelLikeWord(w)).toBe(false);
  });
});
