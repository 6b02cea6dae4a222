import type { Box } from "./model.js";

/** Whether two boxes overlap at all (touching edges do not). */
export function boxesMeet(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.bottom < b.top && b.bottom < a.top;
}

/** The smallest box holding every box given (an empty list gives an empty, inverted box). */
export function unionOfBoxes(boxes: readonly Box[]): Box {
  let left = Number.POSITIVE_INFINITY;
  let bottom = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let top = Number.NEGATIVE_INFINITY;
  for (const b of boxes) {
    left = Math.min(left, b.left);
    bottom = Math.min(bottom, b.bottom);
    right = Math.max(right, b.right);
    top = Math.max(top, b.top);
  }
  return { left, bottom, right, top };
}
