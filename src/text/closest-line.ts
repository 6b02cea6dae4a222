/**
 * The line of a page closest to a quotation that was not found: the line (or pair of adjacent
 * lines, for quotations that cross a break) sharing the longest in-order run of words with it.
 */
import type { PageText } from "../document/model.js";
import { type FoldedText, fold, isFoldSpace } from "./fold.js";

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

/**
 * The words of each line, as words() would give them: folding maps each unit on its own (no hyphen
 * joining here) and collapses whitespace, so a line's words are the folded units that come from it.
 */
function wordsOfLines(page: PageText, folded: FoldedText): string[][] {
  const starts = folded.startUtf16;
  const firstAtOrAfter = (offset: number): number => {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return page.lines.map((line) => {
    if (line.endUtf16 <= line.startUtf16) return [];
    const from = firstAtOrAfter(line.startUtf16);
    const to = firstAtOrAfter(line.endUtf16);
    return folded.text
      .slice(from, to)
      .split(" ")
      .filter((w) => w.length > 0);
  });
}

function isWhitespaceOnly(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isFoldSpace(text.charCodeAt(i))) return false;
  return true;
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

/** `folded`, when given, is fold(page.text) already made (FoldedPages.plainView). */
export function closestLine(
  page: PageText,
  quotation: string,
  folded: FoldedText = fold(page.text),
): ClosestLine | undefined {
  const needle = words(quotation);
  const lines = page.lines;
  if (needle.length === 0 || lines.length === 0) return undefined;
  // The page is folded once and cut into its lines' words; a pair of lines reuses both lists when
  // only whitespace parts them.
  const lineWords = wordsOfLines(page, folded);
  const pairWords = (i: number): string[] => {
    const gapStart = lines[i].endUtf16;
    const gapEnd = lines[i + 1].startUtf16;
    if (gapEnd > gapStart && isWhitespaceOnly(page.text, gapStart, gapEnd))
      return lineWords[i].concat(lineWords[i + 1]);
    return words(page.text.slice(lines[i].startUtf16, lines[i + 1].endUtf16));
  };
  let best: ClosestLine | undefined;
  let bestSpan = 0;
  for (let i = 0; i < lines.length; i++) {
    for (const span of [1, 2]) {
      if (i + span > lines.length) continue;
      const start = lines[i].startUtf16;
      const end = lines[i + span - 1].endUtf16;
      const score = lcs(needle, span === 1 ? lineWords[i] : pairWords(i)) / needle.length;
      // A single line wins ties, wherever it stands: it is the more precise pointer.
      const tie = best !== undefined && Math.abs(score - best.similarity) <= 1e-9;
      if (!best || score > best.similarity + 1e-9 || (tie && span < bestSpan)) {
        bestSpan = span;
        best = {
          text: page.text.slice(start, end).replace(/\s+/g, " ").trim(),
          startUtf16: start,
          endUtf16: end,
          similarity: score,
        };
      }
    }
  }
  return best && best.similarity > 0 ? best : undefined;
}
