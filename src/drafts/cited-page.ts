/**
 * The page of a PDF a draft's page number names. A writer cites the number printed on the page
 * (`p. 7` of a book whose page printed 7 is the file's page 15): where the source's printed labels
 * (its `/PageLabels`, else its running folios: text/printed-labels.ts) put that number on exactly one
 * page of the file, that page is read (`printed`); where no page prints it, or several do (chapters
 * numbered apart), the number is taken as the file's page (`physical`), as single-source check-text
 * takes every page.
 */
import type { PrintedLabels } from "../text/printed-labels.js";

export const PAGE_BASES = ["printed", "physical"] as const;
export type PageBasis = (typeof PAGE_BASES)[number];

export interface CitedPage {
  /** The file's page, 1-based. */
  page: number;
  basis: PageBasis;
}

export function citedPage(labels: PrintedLabels, cited: number): CitedPage {
  const printed = labels.pagesPrinted(cited);
  return printed.length === 1 ? { page: printed[0], basis: "printed" } : { page: cited, basis: "physical" };
}

/** "; p. 7 read as the page printed 7, page 15 of the file" where the label is not the page's number, else "". */
export function citedPageNote(labels: PrintedLabels, at: CitedPage): string {
  const label = at.basis === "printed" ? labels.informative(at.page) : undefined;
  return label === undefined
    ? ""
    : `; p. ${label} read as the page printed ${label}, page ${at.page} of the file`;
}
