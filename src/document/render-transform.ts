/**
 * The mapping between default user space and the pixels of a rendered region. A page renders as a
 * viewer shows it: its CropBox, turned by /Rotate (clockwise), scaled to the requested dpi; the
 * region's image is a window onto that page image.
 */
import type { Box, Rotation } from "./model.js";

export interface RenderTransform {
  page: number;
  rotation: Rotation;
  /** The effective CropBox (intersected with the MediaBox), in default user space. */
  cropBox: Box;
  dpi: number;
  /** Pixels per point along the displayed page's x and y axes (the engine rounds the page size). */
  scaleX: number;
  scaleY: number;
  /** Position of the image's top-left pixel corner in the whole displayed page's pixels. */
  offsetXPx: number;
  offsetYPx: number;
}

/** Default user space -> displayed-page points (origin top-left, y down), before scaling. */
function userToDisplay(x: number, y: number, crop: Box, rotation: Rotation): [number, number] {
  const w = crop.right - crop.left;
  const h = crop.top - crop.bottom;
  const u = x - crop.left;
  const v = y - crop.bottom;
  switch (rotation) {
    case 90:
      return [v, u];
    case 180:
      return [w - u, v];
    case 270:
      return [h - v, w - u];
    default:
      return [u, h - v];
  }
}

function displayToUser(dx: number, dy: number, crop: Box, rotation: Rotation): [number, number] {
  const w = crop.right - crop.left;
  const h = crop.top - crop.bottom;
  let u: number;
  let v: number;
  switch (rotation) {
    case 90:
      u = dy;
      v = dx;
      break;
    case 180:
      u = w - dx;
      v = dy;
      break;
    case 270:
      u = w - dy;
      v = h - dx;
      break;
    default:
      u = dx;
      v = h - dy;
  }
  return [u + crop.left, v + crop.bottom];
}

/** Size of the displayed page (CropBox after /Rotate) in points. */
export function displaySize(crop: Box, rotation: Rotation): { width: number; height: number } {
  const w = crop.right - crop.left;
  const h = crop.top - crop.bottom;
  return rotation % 180 === 0 ? { width: w, height: h } : { width: h, height: w };
}

/** A point in default user space -> pixel coordinates in the rendered image (x right, y down). */
export function userToDevice(x: number, y: number, t: RenderTransform): { xPx: number; yPx: number } {
  const [dx, dy] = userToDisplay(x, y, t.cropBox, t.rotation);
  return { xPx: dx * t.scaleX - t.offsetXPx, yPx: dy * t.scaleY - t.offsetYPx };
}

/** Pixel coordinates in the rendered image -> the point in default user space. */
export function deviceToUser(xPx: number, yPx: number, t: RenderTransform): { x: number; y: number } {
  const [x, y] = displayToUser(
    (xPx + t.offsetXPx) / t.scaleX,
    (yPx + t.offsetYPx) / t.scaleY,
    t.cropBox,
    t.rotation,
  );
  return { x, y };
}

/** A box in default user space -> the pixel rectangle it covers in the image (fractional). */
export function userBoxToDevice(
  box: Box,
  t: RenderTransform,
): { x0: number; y0: number; x1: number; y1: number } {
  const a = userToDevice(box.left, box.bottom, t);
  const b = userToDevice(box.right, box.top, t);
  return {
    x0: Math.min(a.xPx, b.xPx),
    y0: Math.min(a.yPx, b.yPx),
    x1: Math.max(a.xPx, b.xPx),
    y1: Math.max(a.yPx, b.yPx),
  };
}

/** A pixel rectangle of the image -> the box in default user space it shows. */
export function deviceBoxToUser(x0: number, y0: number, x1: number, y1: number, t: RenderTransform): Box {
  const a = deviceToUser(x0, y0, t);
  const b = deviceToUser(x1, y1, t);
  return {
    left: Math.min(a.x, b.x),
    bottom: Math.min(a.y, b.y),
    right: Math.max(a.x, b.x),
    top: Math.max(a.y, b.y),
  };
}
