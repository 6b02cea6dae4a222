/**
 * A page's furniture: the lines outside its body block, which a passage running on from one page to
 * the next passes over (running heads and feet, folios, footnotes). The body block is the vertical
 * extent of the lines in the body's font size that have another such line just above or below them
 * (a paragraph's lines do; a running head, a folio, set apart by the head and foot skips, do not).
 * A wide line next to the block is body too, within a wider reach: a paragraph's first line left
 * alone at a page's foot (or its last at the head) when the page's glue was stretched to fill it,
 * while a folio, narrow, and a running head, beyond that reach, stay out.
 * A page whose body cannot be told has no furniture: nothing is skipped.
 */
import type { LineInfo, PageText } from "../document/model.js";
import { dominantSize } from "./body-flow.js";

/** A body line's neighbour stands within this many line heights, bottom to bottom. */
const NEIGHBOUR_HEIGHTS = 2;
/** A wide line's reach from the block, bottom to bottom, in line heights. */
const WIDE_REACH_HEIGHTS = 3;
/** A line is wide at this share of the block's median line width. */
const WIDE_SHARE = 0.5;
const SMALLER = 0.85;
const LARGER = 1.3;

/**
 * The lines of the page outside its body block, in reading order. `bodySize`: the body's font size
 * where the caller knows it from more than this page (a page of long footnotes sets more characters
 * in the notes' size than in the body's); the page's own dominant size otherwise.
 */
export function furnitureLines(page: PageText, bodySize?: number): LineInfo[] {
  const lines = page.lines.filter((l) => /\S/.test(page.text.slice(l.startUtf16, l.endUtf16)));
  const size = bodySize ?? dominantSize(lines);
  if (size <= 0) return [];
  const body = lines.filter((l) => l.fontSize >= size * SMALLER && l.fontSize <= size * LARGER);
  // Line heights, not font sizes, measure the skips: some producers set every font at size 1 and scale it.
  const height = median(body.map((l) => l.box.top - l.box.bottom));
  if (!(height > 0)) return [];
  // Sorted by bottom, a line's neighbours are the lines next to it within the reach.
  const sorted = [...body].sort((a, b) => a.box.bottom - b.box.bottom);
  const reach = height * NEIGHBOUR_HEIGHTS;
  const dense = sorted.filter((line, i) => {
    for (const step of [-1, 1]) {
      for (let j = i + step; j >= 0 && j < sorted.length; j += step) {
        const gap = Math.abs(sorted[j].box.bottom - line.box.bottom);
        if (gap >= reach) break;
        if (gap > height * 0.5) return true;
      }
    }
    return false;
  });
  if (dense.length === 0) return [];
  let top = Number.NEGATIVE_INFINITY;
  let bottom = Number.POSITIVE_INFINITY;
  for (const l of dense) {
    top = Math.max(top, l.box.top);
    bottom = Math.min(bottom, l.box.bottom);
  }
  const widths = dense.map((l) => l.box.right - l.box.left);
  const wide = median(widths) * WIDE_SHARE;
  const reachWide = height * WIDE_REACH_HEIGHTS;
  // Outward from the block, one line at a time, each wide line within the reach of the block's edge.
  for (const line of [...sorted].reverse()) {
    if (line.box.bottom >= bottom || line.box.right - line.box.left < wide) continue;
    const lowest = dense.reduce((m, l) => Math.min(m, l.box.bottom), Number.POSITIVE_INFINITY);
    if (lowest - line.box.bottom >= reachWide) break;
    bottom = Math.min(bottom, line.box.bottom);
    dense.push(line);
  }
  for (const line of sorted) {
    if (line.box.top <= top || line.box.right - line.box.left < wide) continue;
    const highest = dense.reduce((m, l) => Math.max(m, l.box.bottom), Number.NEGATIVE_INFINITY);
    if (line.box.bottom - highest >= reachWide) break;
    top = Math.max(top, line.box.top);
    dense.push(line);
  }
  const slack = height * 0.25;
  return lines.filter((l) => l.box.bottom > top + slack || l.box.top < bottom - slack);
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}
