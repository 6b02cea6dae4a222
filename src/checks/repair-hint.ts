/**
 * Repair hints on a FAIL: what would make the citation right, computed from the page and never
 * invented. They are evidence, never a verdict: a hint says where the closest words stand and how
 * they differ, not that the writer meant them.
 */
import { type ClosestPassage, closestPassage } from "../text/closest-passage.js";
import { type FoldedText, fold } from "../text/fold.js";
import type { FoldedPages } from "../text/folded-pages.js";
import type { PrintedLabels } from "../text/printed-labels.js";
import { alignWithin, type Difference, describeDifferences, differencesOf } from "../text/word-diff.js";
import { pagesPrintedAs, pageWithLabel } from "./printed-page.js";

export interface RepairHint {
  /** The hint in words, as the message prints it. */
  text: string;
  /** The physical page the hint points at, and its printed label (null when none is known). */
  page: number;
  printedPage: string | null;
  /** The passage closest to the quotation (absent only). */
  passage?: ClosestPassage;
  /** What differs between the page and the quotation. */
  differences?: Difference[];
}

/** wrong-page: the page the words are on, with its printed label. */
export function wrongPageHint(labels: PrintedLabels, found: number): RepairHint {
  return {
    text: `the words are on ${pageWithLabel(labels, found)}`,
    page: found,
    printedPage: labels.of(found)?.label ?? null,
  };
}

/**
 * absent: the closest passage on the cited page or, when the cited number is the label printed on
 * another page, on that page if its passage is closer (the writer cited the folio).
 */
export function absentHint(
  pages: FoldedPages,
  labels: PrintedLabels,
  page: number,
  quoted: string,
): RepairHint | undefined {
  const quotation = fold(quoted, { trim: true });
  let best: { page: number; passage: ClosestPassage } | undefined;
  for (const candidate of [page, ...pagesPrintedAs(labels, page)]) {
    const text = pages.pages.get(candidate);
    const view = pages.view(candidate, "joined");
    if (!text || !view) continue;
    const passage = closestPassage(text.text, view, quoted, quotation);
    if (passage && (!best || passage.similarity > best.passage.similarity))
      best = { page: candidate, passage };
  }
  if (!best) return undefined;
  const { passage } = best;
  const where =
    best.page === page
      ? "closest passage"
      : `the page printed ${page} is page ${best.page} of the file; closest passage there`;
  const differs = passage.differences.length > 0 ? ` (${describeDifferences(passage.differences)})` : "";
  return {
    text: `${where}: "${passage.text}"${differs}`,
    page: best.page,
    printedPage: labels.of(best.page)?.label ?? null,
    passage,
    differences: passage.differences,
  };
}

/** form-differs: the symbols that differ between the quotation and the page's words. */
export function formHint(quoted: string, pageWords: string, page: number, labels: PrintedLabels): RepairHint {
  return { ...formDifferences(quoted, pageWords), page, printedPage: labels.of(page)?.label ?? null };
}

/** The symbols that differ between a quotation and the source's words, character by character. */
export function formDifferences(
  quoted: string,
  sourceWords: string,
  holder = "page",
): { text: string; differences: Difference[] } {
  const a = fold(quoted, { trim: true });
  const b = fold(sourceWords, { trim: true });
  const alignment = alignWithin(a.text.length, b.text.length, (i, j) => a.text[i] === b.text[j]);
  const differences = differencesOf(alignment, original(quoted, a), original(sourceWords, b)).filter(
    (d) => /\S/.test(d.page) || /\S/.test(d.quotation),
  );
  return {
    text: differences.length > 0 ? describeDifferences(differences, 4, holder) : "the spacing differs",
    differences,
  };
}

function original(text: string, folded: FoldedText): (from: number, to: number) => string {
  return (from, to) => text.slice(folded.startUtf16[from], folded.endUtf16[to - 1]);
}
