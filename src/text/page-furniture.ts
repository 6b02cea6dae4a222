/**
 * A page's furniture: the lines outside its body block, which a passage running on from one page to
 * the next passes over (running heads and feet, folios, footnotes). The body block is the vertical
 * extent of the lines in the body's font size that have another such line just above or below them
 * (a paragraph's lines do; a running head, a folio, set apart by the head and foot skips, do not).
 * A page whose body cannot be told has no furniture: nothing is skipped.
 */
import type { LineInfo, PageText } from "../document/model.js";
import { dominantSize } from "./body-flow.js";

/** A body line's neighbour stands within this many line heights, bottom to bottom. */
const NEIGHBOUR_HEIGHTS = 2;
const SMALLER = 0.85;
const LARGER = 1.3;

/** The lines of the page outside its body block, in reading order. */
export function furnitureLines(page: PageText): LineInfo[] {
  const lines = page.lines.filter((l) => /\S/.test(page.text.slice(l.startUtf16, l.endUtf16)));
  const size = dominantSize(lines);
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
  const slack = height * 0.25;
  return lines.filter((l) => l.box.bottom > top + slack || l.box.top < bottom - slack);
}

/** The page's text with its furniture blanked (same length, so offsets are kept). */
export function bodyText(page: PageText): string {
  const furniture = furnitureLines(page);
  if (furniture.length === 0) return page.text;
  let text = "";
  let at = 0;
  for (const line of [...furniture].sort((a, b) => a.startUtf16 - b.startUtf16)) {
    text += page.text.slice(at, line.startUtf16) + " ".repeat(line.endUtf16 - line.startUtf16);
    at = line.endUtf16;
  }
  return text + page.text.slice(at);
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}
