/**
 * The graphics beside a caption, on each side: the image and path objects that start within reach
 * of the caption's block and those joined to them by small gaps, up to the running text or another
 * caption. Which side holds the caption's own figure is decided later, from the whole document.
 */
import type { Box, GraphicObject } from "../document/model.js";

export interface GraphicsSide {
  /** Distance (points) from the caption's block to the nearest graphic on this side. */
  gap: number;
  /** The union of the figure's graphics on this side. */
  box: Box;
}

export interface GraphicsBeside {
  above?: GraphicsSide;
  below?: GraphicsSide;
}

/** How far (in em of the caption) a figure may stand from its caption. */
const REACH_EM = 4;
/** Gaps (in em) that still join two graphics into one figure. */
const JOIN_EM = 1.5;
/** Rounds of growth at most (each one pass over the page's graphics). */
const MAX_ROUNDS = 40;
/** A graphic's or a line's standing, decided once: not yet looked at, reachable, or barred. */
const UNKNOWN = 0;
const FREE = 1;
const BARRED = 2;

export interface FigureSurroundings {
  graphics: readonly GraphicObject[];
  /** Boxes a figure does not extend across: lines of running text and other captions. */
  barriers: readonly Box[];
  /** Other text lines (a figure's legends, axis labels, notes): a figure may extend across them. */
  figureText: readonly Box[];
  /** The box the document's running text stays inside: graphics wholly beyond it are page furniture. */
  textBlock?: Box;
  /** The page as displayed: graphics reaching far past it are clipping or background shapes. */
  page: Box;
  /** The page's columns of running text (left and right edges): a figure stays in its caption's. */
  columns: readonly { left: number; right: number }[];
  /** The page's other captions: a graphic standing over one of them as closely is that one's figure. */
  otherCaptions: readonly Box[];
  /**
   * Where the text beside the caption's first row stands (the running text a wrapped figure sits
   * in, the next column): the right end of the text on its left, the left start of that on its
   * right, -Infinity and Infinity when there is none. Lines in that text are not the figure's.
   */
  textBeside: { leftEnd: number; rightStart: number };
}

/** A line that stands in the text beside the caption: ends where it ends, or starts where it starts. */
function inTextBeside(l: Box, beside: { leftEnd: number; rightStart: number }, em: number): boolean {
  const onLeft = l.left < beside.leftEnd - em && l.right <= beside.leftEnd + em * 0.5;
  const onRight = l.right > beside.rightStart + em && l.left >= beside.rightStart - em * 0.5;
  return onLeft || onRight;
}

export function graphicsBeside(
  around: FigureSurroundings,
  block: Box,
  labelBox: Box,
  em: number,
): GraphicsBeside {
  const out: GraphicsBeside = {};
  const { graphics, textBlock } = around;
  const usable = graphics.filter(
    (g) =>
      !isFrameOf(g.box, labelBox) &&
      !isLoneRule(g, graphics.length) &&
      !farPastPage(g.box, around.page) &&
      !(textBlock && isFurniture(g.box, textBlock, em)),
  );
  for (const side of ["above", "below"] as const) {
    const found = sideGraphics(usable, block, em, side, around);
    if (found) out[side] = found;
  }
  return out;
}

/**
 * How far the caption's side reaches through the text a figure holds: lines joined to the caption
 * (or to each other) by small gaps, overlapping it across, and none of them running text.
 */
function textEdge(
  block: Box,
  em: number,
  side: "above" | "below",
  around: FigureSurroundings,
): Box | undefined {
  let edge = side === "above" ? block.top : block.bottom;
  let reached: Box | undefined;
  const join = em * JOIN_EM;
  const lines = around.figureText;
  // Whether a line may be reached at all does not change from round to round: decided once.
  const usable = new Uint8Array(lines.length);
  const mayReach = (i: number, l: Box) => {
    if (usable[i] === UNKNOWN)
      usable[i] =
        l.right <= block.left - em ||
        l.left >= block.right + em ||
        inTextBeside(l, around.textBeside, em) ||
        crossesBarrier(around.barriers, block, l, side)
          ? BARRED
          : FREE;
    return usable[i] === FREE;
  };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let moved = false;
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      const d = side === "above" ? l.bottom - edge : edge - l.top;
      if (d < -em * 0.5 || d > join) continue;
      const further = side === "above" ? l.top > edge : l.bottom < edge;
      if (!further) continue;
      if (!mayReach(i, l)) continue;
      edge = side === "above" ? l.top : l.bottom;
      reached = reached ? union(reached, l) : { ...l };
      moved = true;
    }
    if (!moved) break;
  }
  return reached;
}

/** A box drawn around (or behind) the caption itself: a frame or a background, not the figure. */
function isFrameOf(b: Box, labelBox: Box): boolean {
  return (
    b.left <= labelBox.left &&
    b.right >= labelBox.right &&
    b.bottom <= labelBox.bottom &&
    b.top >= labelBox.top
  );
}

/**
 * Mostly above or below the text block and either a rule or wholly in the margin: a running head's
 * rule or band, a footer's logo. The text block is read from the running text, so on pages that
 * open with a float it can end below the float's top: a figure reaching across its edge stays.
 */
function isFurniture(b: Box, textBlock: Box, em: number): boolean {
  const inside = Math.min(b.top, textBlock.top + em) - Math.max(b.bottom, textBlock.bottom - em);
  if (inside >= (b.top - b.bottom) * 0.5) return false;
  const rule = Math.min(b.right - b.left, b.top - b.bottom) <= RULE_THICKNESS;
  return rule || b.bottom >= textBlock.top + em * 2 || b.top <= textBlock.bottom - em * 2;
}

/** Graphics no thicker than this (points) are rules. */
const RULE_THICKNESS = 3;

/**
 * Reaching past the page by more than a tenth of its size (a clip or a background), across its
 * whole width or to its edge (a band, a tab or a crop mark of the page's furniture).
 */
function farPastPage(b: Box, page: Box): boolean {
  const w = (page.right - page.left) * 0.1;
  const h = (page.top - page.bottom) * 0.1;
  if (
    b.left < page.left - w ||
    b.right > page.right + w ||
    b.bottom < page.bottom - h ||
    b.top > page.top + h
  )
    return true;
  if (b.right - b.left >= (page.right - page.left) * 0.95) return true;
  // Touching the page's edge: a bleed (a tab, a band, a crop mark); figures stand inside the margins.
  return (
    b.left <= page.left + 1 ||
    b.right >= page.right - 1 ||
    b.bottom <= page.bottom + 1 ||
    b.top >= page.top - 1
  );
}

/** A lone thin rule (a table's or a float's ruling) is not a figure. */
function isLoneRule(g: GraphicObject, count: number): boolean {
  const w = g.box.right - g.box.left;
  const h = g.box.top - g.box.bottom;
  return g.kind === "path" && (w <= 1.5 || h <= 1.5) && count < 3;
}

function sideGraphics(
  graphics: readonly GraphicObject[],
  block: Box,
  em: number,
  side: "above" | "below",
  around: FigureSurroundings,
): GraphicsSide | undefined {
  const barriers = around.barriers;
  const width = block.right - block.left;
  const column = captionColumn(block, around.columns, em);
  const beyond = (b: Box) => (side === "above" ? b.bottom - block.top : block.bottom - b.top);
  // Graphics may start beyond the figure's own text (a legend, a source note) next to the caption.
  const text = textEdge(block, em, side, around);
  const reach =
    em * REACH_EM + (text ? (side === "above" ? text.top - block.top : block.bottom - text.bottom) : 0);
  let box: Box | undefined;
  let gap = Infinity;
  const taken = new Uint8Array(graphics.length);
  // Whether running text or another caption bars a graphic depends on the graphic alone: decided
  // once, not in every round of growth.
  const barred = new Uint8Array(graphics.length);
  const clear = (i: number, b: Box) => {
    if (barred[i] === UNKNOWN)
      barred[i] =
        crossesBarrier(barriers, block, b, side) ||
        nearerOtherCaption(b, block, side, around.otherCaptions, em)
          ? BARRED
          : FREE;
    return barred[i] === FREE;
  };
  for (let i = 0; i < graphics.length; i++) {
    const b = graphics[i].box;
    const overlap = Math.min(b.right, block.right + em) - Math.max(b.left, block.left - em);
    if (overlap <= Math.min(width, b.right - b.left) * 0.3) continue;
    const d = beyond(b);
    if (d < -em * 0.5 || d > reach) continue;
    if (!clear(i, b)) continue;
    taken[i] = 1;
    gap = Math.min(gap, d);
    box = box ? union(box, b) : { ...b };
  }
  if (!box) return undefined;
  // Grow the figure by the graphics joined to it, on its side of the caption only.
  const join = em * JOIN_EM;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let grew = false;
    for (let i = 0; i < graphics.length; i++) {
      if (taken[i]) continue;
      const b = graphics[i].box;
      if (beyond(b) < -em * 0.5) continue;
      const mid = (b.left + b.right) / 2;
      if (mid < column.left || mid > column.right) continue;
      if (b.left > box.right + join || b.right < box.left - join) continue;
      if (b.bottom > box.top + join || b.top < box.bottom - join) continue;
      if (!clear(i, b)) continue;
      taken[i] = 1;
      box = union(box, b);
      grew = true;
    }
    if (!grew) break;
  }
  // The figure's own text between its graphics and the caption belongs to it.
  if (text) box = union(box, text);
  return { gap, box };
}

/**
 * The narrowest column that holds most of the caption, widened to the caption and by an em: its
 * figure's graphics are joined only within it. Unbounded when no column holds the caption.
 */
function captionColumn(block: Box, columns: readonly { left: number; right: number }[], em: number) {
  let best: { left: number; right: number } | undefined;
  const width = block.right - block.left;
  for (const c of columns) {
    const overlap = Math.min(c.right, block.right) - Math.max(c.left, block.left);
    if (overlap < width * 0.8) continue;
    if (!best || c.right - c.left < best.right - best.left) best = c;
  }
  if (!best) return { left: -Infinity, right: Infinity };
  return { left: Math.min(best.left, block.left) - em, right: Math.max(best.right, block.right) + em };
}

/**
 * A graphic that stands over another caption (side by side figures, each captioned), across it more
 * than across this one and no further from it: that caption's figure.
 */
function nearerOtherCaption(
  b: Box,
  block: Box,
  side: "above" | "below",
  others: readonly Box[],
  em: number,
): boolean {
  const across = (c: Box) => Math.min(b.right, c.right) - Math.max(b.left, c.left);
  const distance = (c: Box) => (side === "above" ? b.bottom - c.top : c.bottom - b.top);
  const own = across(block);
  const ownDistance = distance(block);
  return others.some(
    (c) => across(c) > Math.max(own, 0) && distance(c) >= -em * 0.5 && distance(c) <= ownDistance + em,
  );
}

/** Whether a barrier (running text, another caption) stands between the caption and the graphic. */
function crossesBarrier(barriers: readonly Box[], block: Box, b: Box, side: "above" | "below"): boolean {
  for (const r of barriers) {
    if (r.right <= Math.max(block.left, b.left) || r.left >= Math.min(block.right, b.right)) continue;
    const mid = (r.bottom + r.top) / 2;
    const between =
      side === "above" ? r.bottom >= block.top && mid <= b.bottom : r.top <= block.bottom && mid >= b.top;
    if (between) return true;
  }
  return false;
}

export function union(a: Box, b: Box): Box {
  return {
    left: Math.min(a.left, b.left),
    bottom: Math.min(a.bottom, b.bottom),
    right: Math.max(a.right, b.right),
    top: Math.max(a.top, b.top),
  };
}
