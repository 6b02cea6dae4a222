/**
 * The line of a page closest to a quotation that was not found: the line (or pair of adjacent
 * lines, for quotations that cross a break) sharing the longest in-order run of words with it.
 */
import type { PageText } from "../document/model.js";
import { fold } from "./fold.js";

export interface ClosestLine {
  text: string;
  startUtf16: number;
  endUtf16: number;
  /** Share of the quotation's words found in order in the line, 0..1. */
  similarity: number;
}

function words(text: string): string[] {
  return fold(text, { trim: true })
    .text.split(" ")
    .filter((w) => w.length > 0);
}

/** Length of the longest common subsequence of two word lists. */
function lcs(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diag + 1 : Math.max(row[j], row[j - 1]);
      diag = up;
    }
  }
  return row[b.length];
}

export function closestLine(page: PageText, quotation: string): ClosestLine | undefined {
  const needle = words(quotation);
  if (needle.length === 0 || page.lines.length === 0) return undefined;
  let best: ClosestLine | undefined;
  let bestSpan = 0;
  for (let i = 0; i < page.lines.length; i++) {
    for (const span of [1, 2]) {
      if (i + span > page.lines.length) continue;
      const start = page.lines[i].startUtf16;
      const end = page.lines[i + span - 1].endUtf16;
      const text = page.text.slice(start, end);
      const score = lcs(needle, words(text)) / needle.length;
      // A single line wins ties, wherever it stands: it is the more precise pointer.
      const tie = best !== undefined && Math.abs(score - best.similarity) <= 1e-9;
      if (!best || score > best.similarity + 1e-9 || (tie && span < bestSpan)) {
        bestSpan = span;
        best = {
          text: text.replace(/\s+/g, " ").trim(),
          startUtf16: start,
          endUtf16: end,
          similarity: score,
        };
      }
    }
  }
  return best && best.similarity > 0 ? best : undefined;
}
