// Column frames of a page mixing three columns and two with one left edge (a magazine's stories):
// the narrow column's lines run one after another, so they are a column of their own, while lines
// ending alike one at a time between a wide column's lines (paragraphs ending with the same words)
// are no frame.
import { describe, expect, it } from "vitest";
import { type BodyLine, framesOf } from "../../src/layout/text-frames.js";

const line = (left: number, right: number, top: number): BodyLine => ({
  box: { left, right, bottom: top - 9, top },
  startUtf16: 0,
  endUtf16: 60,
  fontSize: 10,
});

/** Lines of one column from `top` down, 12 pt apart. */
const stretch = (left: number, right: number, top: number, n: number) =>
  Array.from({ length: n }, (_, i) => line(left, right, top - i * 12));

const hasFrame = (frames: { left: number; right: number }[], left: number, right: number) =>
  frames.some((f) => Math.abs(f.left - left) < 1 && Math.abs(f.right - right) < 1);

describe("frames of mixed columns", () => {
  it("keeps a narrow column above and below a wide one with the same left edge", () => {
    const lines = [...stretch(43, 203, 770, 8), ...stretch(43, 290, 650, 8), ...stretch(43, 203, 530, 8)];
    const frames = framesOf(lines);
    expect(hasFrame(frames, 43, 203)).toBe(true);
    expect(hasFrame(frames, 43, 290)).toBe(true);
  });

  it("drops paragraph ends that end alike one at a time between a wide column's lines", () => {
    const lines: BodyLine[] = [];
    for (let p = 0; p < 4; p++) {
      lines.push(...stretch(43, 290, 770 - p * 60, 4));
      lines.push(line(43, 203, 770 - p * 60 - 48));
    }
    const frames = framesOf(lines);
    expect(hasFrame(frames, 43, 290)).toBe(true);
    expect(hasFrame(frames, 43, 203)).toBe(false);
  });
});
