/**
 * Box outlines drawn into a rendered page's pixels before the PNG is encoded (crop --explain's
 * boxes, so that an image handed on alone still shows them). Pure: RGBA rows in, RGBA rows out.
 */
import type { Box } from "./model.js";

/** A box in default user space, outlined in an opaque colour `lineWidthPx` pixels wide. */
export interface Outline {
  box: Box;
  rgb: readonly [number, number, number];
  lineWidthPx: number;
}

/** An outline's box in the image's pixels: x right, y down, x1 and y1 exclusive. */
export interface PixelOutline {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  rgb: readonly [number, number, number];
  lineWidthPx: number;
}

/**
 * Strokes each outline inside its box into RGBA `pixels` (`stride` bytes a row), clipped to the
 * image; a box thinner than two lines is filled.
 */
export function drawOutlines(
  pixels: Uint8Array,
  width: number,
  height: number,
  stride: number,
  outlines: readonly PixelOutline[],
): void {
  for (const o of outlines) {
    const x0 = Math.max(0, Math.round(o.x0));
    const y0 = Math.max(0, Math.round(o.y0));
    const x1 = Math.min(width, Math.max(Math.round(o.x1), Math.round(o.x0) + 1));
    const y1 = Math.min(height, Math.max(Math.round(o.y1), Math.round(o.y0) + 1));
    if (x0 >= x1 || y0 >= y1) continue;
    const w = Math.max(1, Math.round(o.lineWidthPx));
    const top = Math.round(o.y0) + w;
    const bottom = Math.round(o.y1) - w;
    const left = Math.round(o.x0) + w;
    const right = Math.round(o.x1) - w;
    for (let y = y0; y < y1; y++) {
      const edgeRow = y < top || y >= bottom;
      const row = y * stride;
      for (let x = x0; x < x1; x++) {
        if (!edgeRow && x >= left && x < right) {
          x = right - 1;
          continue;
        }
        const p = row + x * 4;
        pixels[p] = o.rgb[0];
        pixels[p + 1] = o.rgb[1];
        pixels[p + 2] = o.rgb[2];
        pixels[p + 3] = 255;
      }
    }
  }
}
