// Outlines are stroked inside their boxes into RGBA rows, clipped to the image, leaving the inside.
import { describe, expect, it } from "vitest";
import { drawOutlines } from "../../src/document/outlines.js";

const W = 10;
const H = 8;
const STRIDE = W * 4 + 8; // rows padded, as an engine's bitmap may be
const red = [200, 10, 20] as const;

function image(): Uint8Array {
  return new Uint8Array(STRIDE * H).fill(255);
}
const at = (px: Uint8Array, x: number, y: number) => [
  ...px.subarray(y * STRIDE + x * 4, y * STRIDE + x * 4 + 3),
];

describe("drawOutlines", () => {
  it("strokes the box's edges and leaves its inside and outside alone", () => {
    const px = image();
    drawOutlines(px, W, H, STRIDE, [{ x0: 2, y0: 1, x1: 8, y1: 6, rgb: red, lineWidthPx: 1 }]);
    expect(at(px, 2, 1)).toEqual([...red]);
    expect(at(px, 7, 5)).toEqual([...red]);
    expect(at(px, 5, 1)).toEqual([...red]);
    expect(at(px, 2, 3)).toEqual([...red]);
    expect(at(px, 4, 3)).toEqual([255, 255, 255]);
    expect(at(px, 1, 1)).toEqual([255, 255, 255]);
    expect(at(px, 8, 6)).toEqual([255, 255, 255]);
    // The row padding is never written.
    expect([...px.subarray(W * 4, STRIDE)].every((v) => v === 255)).toBe(true);
  });

  it("clips a box reaching past the image, and skips one outside it", () => {
    const px = image();
    drawOutlines(px, W, H, STRIDE, [
      { x0: -5, y0: -5, x1: 3, y1: 3, rgb: red, lineWidthPx: 1 },
      { x0: 20, y0: 2, x1: 30, y1: 5, rgb: red, lineWidthPx: 1 },
    ]);
    expect(at(px, 2, 0)).toEqual([...red]);
    expect(at(px, 0, 2)).toEqual([...red]);
    expect(at(px, 0, 0)).toEqual([255, 255, 255]);
    expect(at(px, 9, 3)).toEqual([255, 255, 255]);
  });
});
