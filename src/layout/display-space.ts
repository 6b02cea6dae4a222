/**
 * The layout rules read a page as it is displayed: rows run left to right, y grows upwards. For a
 * page with /Rotate, boxes are turned into that display space (origin at the displayed page's
 * bottom-left) before the rules run, and the boxes they find are turned back into default user
 * space for the record. Pages without /Rotate are left exactly as they are.
 */
import type { Box, PageText, Rotation } from "../document/model.js";

export interface DisplaySpace {
  rotation: Rotation;
  /** User space -> display space. */
  point(x: number, y: number): [number, number];
  box(b: Box): Box;
  /** Display space -> user space. */
  toUser(b: Box): Box;
}

export function displaySpace(page: Pick<PageText, "rotation" | "cropBox">): DisplaySpace | undefined {
  if (page.rotation === 0) return undefined;
  const c = page.cropBox;
  const w = c.right - c.left;
  const h = c.top - c.bottom;
  const rotation = page.rotation;
  // Clockwise /Rotate: the displayed page's bottom-left corner shows user point...
  const point = (x: number, y: number): [number, number] => {
    const u = x - c.left;
    const v = y - c.bottom;
    switch (rotation) {
      case 90:
        return [v, w - u];
      case 180:
        return [w - u, h - v];
      default:
        return [h - v, u];
    }
  };
  const back = (dx: number, dy: number): [number, number] => {
    switch (rotation) {
      case 90:
        return [w - dy + c.left, dx + c.bottom];
      case 180:
        return [w - dx + c.left, h - dy + c.bottom];
      default:
        return [dy + c.left, h - dx + c.bottom];
    }
  };
  const span = (a: [number, number], b: [number, number]): Box => ({
    left: Math.min(a[0], b[0]),
    bottom: Math.min(a[1], b[1]),
    right: Math.max(a[0], b[0]),
    top: Math.max(a[1], b[1]),
  });
  return {
    rotation,
    point,
    box: (b) => span(point(b.left, b.bottom), point(b.right, b.top)),
    toUser: (b) => span(back(b.left, b.bottom), back(b.right, b.top)),
  };
}

/** The page with its line and graphics boxes in display space (the text layer itself unchanged). */
export function displayedPage(page: PageText): PageText {
  const space = displaySpace(page);
  if (!space) return page;
  return {
    ...page,
    lines: page.lines.map((l) => ({ ...l, box: space.box(l.box) })),
    graphics: page.graphics.map((g) => ({ ...g, box: space.box(g.box) })),
    cropBox: { left: 0, bottom: 0, right: page.width, top: page.height },
    mediaBox: { left: 0, bottom: 0, right: page.width, top: page.height },
    rotation: 0,
  };
}
