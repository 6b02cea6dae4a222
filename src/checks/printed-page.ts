/**
 * The printed labels in a page-bearing result: which label the page prints (evidence only), and
 * where the page a writer named is printed, when it is not the physical page (the usual mistake:
 * citing the folio instead of the file's page).
 */
import type { PrintedLabels } from "../text/printed-labels.js";

/** `printedPage` (null when no label is known) and, with a label, where it was read. */
export function printedPageEvidence(
  labels: PrintedLabels,
  page: number,
): { printedPage: string | null; printedPageSource?: string } {
  const printed = labels.of(page);
  return printed ? { printedPage: printed.label, printedPageSource: printed.source } : { printedPage: null };
}

/** Physical pages other than `page` that print `page` as their label. */
export function pagesPrintedAs(labels: PrintedLabels, page: number): number[] {
  return labels.pagesPrinted(page).filter((p) => p !== page);
}

/** "; the page printed 219 is page 3 of the file", or "" when no other page prints that label. */
export function printedAsNote(labels: PrintedLabels, page: number): string {
  const printed = pagesPrintedAs(labels, page);
  if (printed.length === 0) return "";
  const where = printed.length === 1 ? `page ${printed[0]}` : `pages ${listOf(printed)}`;
  return `; the page printed ${page} is ${where} of the file`;
}

/** "page 9 of the file, printed 7" where the label differs from the page number, else "page 9". */
export function pageWithLabel(labels: PrintedLabels, page: number): string {
  const label = labels.informative(page);
  return label === undefined ? `page ${page}` : `page ${page} of the file, printed ${label}`;
}

export function listOf(items: readonly (string | number)[]): string {
  if (items.length === 1) return String(items[0]);
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
