/**
 * The body flow of a page: its text with the lines set apart from the body blanked out,
 * so that a quotation crossing them (a column break with footnotes at the foot of the first
 * column, a small-print caption of a float at the head of the next) reads as the body does.
 * A line is set apart when it is in a smaller font than the body and stands out of the flow:
 * the next body line lies above it, or the body line before it lies below it.
 * Small print in the flow (a table between two paragraphs) is kept, so no word the flow
 * passes through is ever skipped. Blanking keeps every offset: a match maps back unchanged.
 */
import type { LineInfo, PageText } from "../document/model.js";

const SMALLER = 0.85;

/** The page text with lines set apart replaced by spaces, or undefined when none is. */
export function bodyFlowText(page: PageText): string | undefined {
  const bodySize = dominantSize(page.lines);
  if (bodySize <= 0) return undefined;
  const lines = page.lines;
  const isBody = (l: LineInfo) => l.fontSize >= bodySize * SMALLER;
  const nextBody: (LineInfo | undefined)[] = new Array(lines.length);
  for (let i = lines.length - 1, next: LineInfo | undefined; i >= 0; i--) {
    nextBody[i] = next;
    if (isBody(lines[i])) next = lines[i];
  }
  const blank: LineInfo[] = [];
  let before: LineInfo | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isBody(line)) {
      before = line;
      continue;
    }
    if (line.fontSize <= 0 || !before) continue;
    const after = nextBody[i];
    if (!after) continue;
    if (after.box.bottom > line.box.top || before.box.top < line.box.bottom) blank.push(line);
  }
  if (blank.length === 0) return undefined;
  let text = "";
  let at = 0;
  for (const line of blank) {
    text += page.text.slice(at, line.startUtf16) + " ".repeat(line.endUtf16 - line.startUtf16);
    at = line.endUtf16;
  }
  return text + page.text.slice(at);
}

/** The font size that carries the most characters on the page (0 when no line has one). */
export function dominantSize(lines: readonly LineInfo[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) {
    if (l.fontSize <= 0) continue;
    weight.set(l.fontSize, (weight.get(l.fontSize) ?? 0) + (l.endUtf16 - l.startUtf16));
  }
  let best = 0;
  let size = 0;
  for (const [s, w] of weight) {
    if (w > best) {
      best = w;
      size = s;
    }
  }
  return size;
}
