/**
 * The graphics walk: the boxes of a page's paths and images, forms entered (to a depth of 8) with
 * their matrices applied, at most MAX_GRAPHICS_PER_PAGE kept and MAX_OBJECTS_VISITED visited (the
 * rest counted as dropped only as far as they were seen).
 */
import type { Box, GraphicObject } from "../model.js";
import { type Matrix, multiply, transformBox } from "./boxes.js";
import type { Engine } from "./engine.js";

const MAX_GRAPHICS_PER_PAGE = 4000;
/** Objects visited at most per page: forms that draw forms fan out without end. */
const MAX_OBJECTS_VISITED = 200_000;
const PAGEOBJ_TEXT = 1;
const PAGEOBJ_PATH = 2;
const PAGEOBJ_IMAGE = 3;
const PAGEOBJ_FORM = 5;

/** The painting order of a page's text objects and images, to tell text an image paints over. */
export interface PaintOrder {
  textOrder: Map<number, number>;
  images: { order: number; box: Box }[];
  /** Width times height of the page's largest image, in the image's own pixels (0 without images). */
  largestImagePixels: number;
}

export function collectGraphics(
  engine: Engine,
  page: number,
): { graphics: GraphicObject[]; dropped: number; paint: PaintOrder; objects: number } {
  const raw = engine.raw;
  const graphics: GraphicObject[] = [];
  const paint: PaintOrder = { textOrder: new Map(), images: [], largestImagePixels: 0 };
  let dropped = 0;
  let order = 0;
  const s = engine.scratchPtr();
  let visited = 0;
  const visit = (obj: number, matrix: Matrix | undefined, depth: number) => {
    if (++visited > MAX_OBJECTS_VISITED) {
      dropped++;
      return;
    }
    const type = raw.FPDFPageObj_GetType(obj);
    order++;
    if (type === PAGEOBJ_TEXT) {
      paint.textOrder.set(obj, order);
      return;
    }
    if (type === PAGEOBJ_FORM) {
      if (depth > 8) return;
      let own: Matrix | undefined;
      if (raw.FPDFPageObj_GetMatrix(obj, s)) {
        const f = engine.heapF32();
        const k = s >> 2;
        own = [f[k], f[k + 1], f[k + 2], f[k + 3], f[k + 4], f[k + 5]];
      }
      const composed = own ? (matrix ? multiply(own, matrix) : own) : matrix;
      const n = raw.FPDFFormObj_CountObjects(obj);
      for (let i = 0; i < n && visited <= MAX_OBJECTS_VISITED; i++) {
        const child = raw.FPDFFormObj_GetObject(obj, i);
        if (child) visit(child, composed, depth + 1);
      }
      return;
    }
    if (type !== PAGEOBJ_PATH && type !== PAGEOBJ_IMAGE) return;
    if (graphics.length >= MAX_GRAPHICS_PER_PAGE) {
      dropped++;
      return;
    }
    if (!raw.FPDFPageObj_GetBounds(obj, s, s + 4, s + 8, s + 12)) return;
    const f = engine.heapF32();
    const k = s >> 2;
    let box: Box = { left: f[k], bottom: f[k + 1], right: f[k + 2], top: f[k + 3] };
    if (matrix) box = transformBox(box, matrix);
    if (![box.left, box.bottom, box.right, box.top].every(Number.isFinite)) return;
    graphics.push({ kind: type === PAGEOBJ_IMAGE ? "image" : "path", box });
    if (type === PAGEOBJ_IMAGE) {
      paint.images.push({ order, box });
      if (raw.FPDFImageObj_GetImagePixelSize(obj, s, s + 4)) {
        const heap = engine.heapU8();
        const view = new DataView(heap.buffer, heap.byteOffset);
        const pixels = view.getUint32(s, true) * view.getUint32(s + 4, true);
        if (pixels > paint.largestImagePixels) paint.largestImagePixels = pixels;
      }
    }
  };
  const count = raw.FPDFPage_CountObjects(page);
  for (let i = 0; i < count && visited <= MAX_OBJECTS_VISITED; i++) {
    const obj = raw.FPDFPage_GetObject(page, i);
    if (obj) visit(obj, undefined, 0);
  }
  return { graphics, dropped, paint, objects: visited };
}

/** Whether an image painted after the text object wholly covers the glyph box given. */
export function coveredByLaterImage(
  paint: PaintOrder,
  object: number,
  left: number,
  bottom: number,
  right: number,
  top: number,
): boolean {
  if (paint.images.length === 0) return false;
  const order = paint.textOrder.get(object);
  if (order === undefined) return false;
  for (const image of paint.images) {
    const b = image.box;
    if (image.order > order && b.left <= left && b.bottom <= bottom && b.right >= right && b.top >= top)
      return true;
  }
  return false;
}

/**
 * Renders a region of a page (0-based index) to PNG. `box` is in default user space (undefined:
 * the whole visible page); the render applies the page's /Rotate, so the image looks as a viewer
 * shows the page. A box reaching past the page is clipped to it; one wholly outside is refused.
 */
