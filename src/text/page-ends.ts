/**
 * The lines a producer wrote out of reading order at a page's ends. A browser's print writes the
 * glyphs of inline mathematics (MathJax's rendering) after the rest of the page's text, so the page's
 * text ends with them although they stand mid-page; a passage running on to the next page continues
 * from the body's last line, not from them. A fragment (a line under half the page's median width,
 * or of under a quarter of its median characters) at the text's end is out of order when a line written before it is read after it (it
 * stands wholly below, or on the same band reaching right of the fragment's start) and beside it (overlapping it, or within NEAR line heights: a glyph set at a line's end); a
 * short line at the text's start, when a line written after it is read before it and beside it. The walk stops at the first line in order; lines in `skip` (furniture, blanked already) are
 * passed over. A column's last line is long, or stands beside no lower line of the column before.
 */
import type { LineInfo, PageText } from "../document/model.js";

/** The out-of-order lines at the end and at the start of the page's text. */
export function outOfOrderEnds(page: PageText, skip: ReadonlySet<LineInfo>): LineInfo[] {
  const lines = page.lines.filter(
    (l) => !skip.has(l) && /\S/.test(page.text.slice(l.startUtf16, l.endUtf16)),
  );
  const short = median(lines.map(width)) * SHORT_SHARE;
  const few = median(lines.map(chars)) * FEW_SHARE;
  const fragment = (l: LineInfo) => width(l) < short || chars(l) < few;
  const out: LineInfo[] = [];
  let end = lines.length;
  for (; end > 0; end--) {
    const line = lines[end - 1];
    if (!fragment(line) || !lines.slice(0, end - 1).some((l) => beside(l, line) && readsAfter(l, line)))
      break;
    out.push(line);
  }
  for (let start = 0; start < end - 1; start++) {
    const line = lines[start];
    if (!fragment(line) || !lines.slice(start + 1, end).some((l) => beside(l, line) && readsAfter(line, l)))
      break;
    out.push(line);
  }
  return out;
}

/** A fragment is shorter than this share of the median line width, */
const SHORT_SHARE = 0.5;
/** or holds fewer characters than this share of the median line's (glyphs set far apart on one band). */
const FEW_SHARE = 0.25;
/** A line stands beside a fragment within this many of the fragment's heights, left or right. */
const NEAR = 2;

function chars(line: LineInfo): number {
  return line.endUtf16 - line.startUtf16;
}

function width(line: LineInfo): number {
  return line.box.right - line.box.left;
}

/** Whether `a` shares part of `b`'s horizontal stretch, or stands within NEAR of `b`'s heights of it. */
function beside(a: LineInfo, b: LineInfo): boolean {
  const near = (b.box.top - b.box.bottom) * NEAR;
  return a.box.left < b.box.right + near && b.box.left - near < a.box.right;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[sorted.length >> 1];
}

/**
 * Whether some of `a` is read after `b` begins: `a` stands wholly below `b`, or on the same band
 * reaching right of `b`'s start (to its right, or over it: a line drawn around a fragment set in it).
 */
function readsAfter(a: LineInfo, b: LineInfo): boolean {
  if (a.box.top < b.box.bottom) return true;
  const sameBand = a.box.bottom < b.box.top && b.box.bottom < a.box.top;
  return sameBand && a.box.right > b.box.left + (b.box.top - b.box.bottom) / 2;
}
