/** Box and matrix arithmetic in PDF user space: pure, no engine. */
import { CiteproofError } from "../../errors.js";
import type { Box } from "../model.js";

/** A PDF transformation matrix [a b c d e f]. */
export type Matrix = [number, number, number, number, number, number];

/** The transform that applies `a` first, then `b`. */
export function multiply(a: Matrix, b: Matrix): Matrix {
  // Row-vector convention of PDF.
  return [
    a[0] * b[0] + a[1] * b[2],
    a[0] * b[1] + a[1] * b[3],
    a[2] * b[0] + a[3] * b[2],
    a[2] * b[1] + a[3] * b[3],
    a[4] * b[0] + a[5] * b[2] + b[4],
    a[4] * b[1] + a[5] * b[3] + b[5],
  ];
}

/** The bounding box of `box` transformed by `m`. */
export function transformBox(box: Box, m: Matrix): Box {
  const pts = [
    [box.left, box.bottom],
    [box.right, box.bottom],
    [box.left, box.top],
    [box.right, box.top],
  ].map(([x, y]) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return { left: Math.min(...xs), bottom: Math.min(...ys), right: Math.max(...xs), top: Math.max(...ys) };
}

/** The overlap of two boxes, or `b` when they do not overlap. */
export function intersect(a: Box, b: Box): Box {
  const r = {
    left: Math.max(a.left, b.left),
    bottom: Math.max(a.bottom, b.bottom),
    right: Math.min(a.right, b.right),
    top: Math.min(a.top, b.top),
  };
  return r.right > r.left && r.top > r.bottom ? r : b;
}

/** Clips a requested region to the visible page; refuses one that is not finite or lies outside it. */
export function clipRegion(box: Box, cropBox: Box, page: number): Box {
  const values = [box.left, box.bottom, box.right, box.top];
  if (!values.every(Number.isFinite)) {
    throw new CiteproofError("BOX_INVALID", `the box ${values.join(",")} is not made of finite numbers`);
  }
  if (!(box.right > box.left && box.top > box.bottom)) {
    throw new CiteproofError(
      "BOX_INVALID",
      `the box ${values.join(",")} is empty: it needs left < right and bottom < top`,
    );
  }
  const clipped = {
    left: Math.max(box.left, cropBox.left),
    bottom: Math.max(box.bottom, cropBox.bottom),
    right: Math.min(box.right, cropBox.right),
    top: Math.min(box.top, cropBox.top),
  };
  if (!(clipped.right > clipped.left && clipped.top > clipped.bottom)) {
    const c = [cropBox.left, cropBox.bottom, cropBox.right, cropBox.top].map(
      (v) => Math.round(v * 100) / 100,
    );
    throw new CiteproofError(
      "BOX_INVALID",
      `the box ${values.join(",")} lies outside page ${page}, whose visible area is ${c.join(",")}`,
    );
  }
  return clipped;
}
