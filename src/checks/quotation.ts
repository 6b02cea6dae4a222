/**
 * The quotation check: are these words on the named page (or running from it onto the next, with
 * `endPage`)? Folded comparison (case, spacing, line breaks, ligatures, curly quotes, dash widths
 * ignored); any other difference fails. A quotation shortened with ellipses is checked as its parts.
 */
import { ellipsisParts, everyPartHasWords } from "../text/ellipsis.js";
import { countWords, fold } from "../text/fold.js";
import type { FoldedPages, PageMatch } from "../text/folded-pages.js";
import { findAcrossBreak, type PagePart } from "../text/page-break.js";
import type { Region } from "../text/page-regions.js";
import type { PrintedLabels } from "../text/printed-labels.js";
import { pagesPrintedAs, printedAsNote, printedPageEvidence } from "./printed-page.js";
import { checkElided } from "./quotation-elided-check.js";
import { failNotFound } from "./quotation-fail.js";
import { layerNote, layerOfPage, onlyInNote, unreadPageFlag } from "./quotation-layer.js";
import type { CheckResult } from "./result.js";
import { MIN_QUOTATION_WORDS } from "./verdicts.js";

export interface QuotationInput {
  id?: string;
  page?: number;
  /** The last page the words run onto (inclusive); only the page after `page` in this version. */
  endPage?: number;
  text: string;
}

/** What every step of the check shares. */
export interface QuotationCase {
  base: { id?: string; kind: "quotation" };
  pages: FoldedPages;
  labels: PrintedLabels;
  quoted: string;
  page: number;
  endPage: number | undefined;
  /** quotation, page, endPage, printed labels, `layer` (of `page`): the evidence every result starts with. */
  evidence: Record<string, unknown>;
}

export function checkQuotation(pages: FoldedPages, pageCount: number, record: QuotationInput): CheckResult {
  const base = { id: record.id, kind: "quotation" as const };
  const q = { quotation: record.text };
  const quoted = record.text;
  if (record.page === undefined) {
    return {
      ...base,
      verdict: "UNANCHORED",
      reason: "no-page",
      message: "quoted, no page named; not checked",
      evidence: { ...q },
    };
  }
  const page = record.page;
  const endPage = record.endPage;
  const labels = pages.labels;
  const missing = [page, endPage ?? page].find((p) => p < 1 || p > pageCount);
  if (missing !== undefined) {
    return {
      ...base,
      verdict: "FAIL",
      reason: "no-such-page",
      message: `page ${missing} does not exist (the file has ${pageCount} pages)${printedAsNote(labels, missing)}`,
      evidence: {
        ...q,
        page,
        ...(endPage !== undefined ? { endPage } : {}),
        pageCount,
        printedPage: null,
        pagesPrintedAs: pagesPrintedAs(labels, missing),
      },
    };
  }
  const evidence = {
    ...q,
    page,
    ...printedPageEvidence(labels, page),
    ...(endPage !== undefined ? { endPage, printedEndPage: labels.of(endPage)?.label ?? null } : {}),
  };
  const unreadable = (endPage === undefined ? [page] : [page, endPage]).find(
    (p) => pages.pages.get(p)?.extractionError !== undefined,
  );
  if (unreadable !== undefined) {
    const error = pages.pages.get(unreadable)?.extractionError;
    return {
      ...base,
      verdict: "FLAG",
      reason: "page-unreadable",
      message: `page ${unreadable} exists but its text could not be extracted (${error}); the words were not checked`,
      evidence: { ...evidence, extractionError: error },
    };
  }
  // An ellipsis at an end (a draft's quotation may open or close with one) leaves nothing out between parts.
  const parts = ellipsisParts(quoted)?.filter((part) => everyPartHasWords([part]));
  const words = countWords(parts ? parts.join(" ") : quoted);
  const named = endPage === undefined ? `page ${page}` : `pages ${page}-${endPage}`;
  if (words < MIN_QUOTATION_WORDS) {
    return {
      ...base,
      verdict: "FLAG",
      reason: "no-quotation",
      message: `${named} exists; no quotation to verify: ${words} words, need ${MIN_QUOTATION_WORDS}`,
      evidence: { ...evidence, words },
    };
  }
  const c: QuotationCase = {
    base,
    pages,
    labels,
    quoted,
    page,
    endPage,
    evidence: { ...evidence, layer: layerOfPage({ pages }, page) },
  };
  const found = foundInRange(c, fold(quoted, { trim: true }).text);
  if (found) return found;
  const needle = fold(parts ? parts.join(" ") : quoted, { trim: true }).text;
  // Words that are an image were never read: that is no evidence they are not there.
  const unread = unreadPageFlag(c, needle);
  if (unread) return unread;
  if (parts && parts.length > 1) return checkElided(c, parts);
  if (parts) {
    const part = foundInRange(c, needle);
    if (part) return part;
  }
  if (endPage === undefined) {
    const crossing = findAcrossBreak(pages, page, needle) ?? findAcrossBreak(pages, page - 1, needle);
    if (crossing) {
      const [from, onto] = crossing.parts;
      return {
        ...base,
        verdict: "FAIL",
        reason: "crosses-page",
        message: `the words run from page ${from.page} onto page ${onto.page}: name both (endPage ${onto.page})`,
        evidence: { ...evidence, matches: crossing.parts.map((part) => matchOf(c, part, true)) },
      };
    }
  }
  return failNotFound(c, needle);
}

/** PASS found: the words on a page named, or from `page` onto `endPage` across the break. */
function foundInRange(c: QuotationCase, needle: string): CheckResult | undefined {
  for (const p of c.endPage === undefined ? [c.page] : [c.page, c.endPage]) {
    const matches = c.pages.findOnPage(p, needle);
    if (matches.length > 0 && c.pages.pages.get(p)) {
      const located = matches.map((m) => matchOf(c, m));
      const regions = located.map((m) => m.region);
      return {
        ...c.base,
        verdict: "PASS",
        reason: "found",
        message: `found on page ${p}${layerNote(layerOfPage(c, p))}${onlyInNote(regions)}`,
        evidence: { ...c.evidence, matches: located },
      };
    }
  }
  if (c.endPage === undefined) return undefined;
  const across = findAcrossBreak(c.pages, c.page, needle);
  if (!across) return undefined;
  const located = across.parts.map((part) => matchOf(c, part));
  const ocr = across.parts.some((part) => layerOfPage(c, part.page) === "ocr-layer");
  return {
    ...c.base,
    verdict: "PASS",
    reason: "found",
    message: `found running from the foot of page ${c.page} onto page ${c.endPage}${ocr ? layerNote("ocr-layer") : ""}${onlyInNote(located.map((m) => m.region))}`,
    evidence: { ...c.evidence, matches: located },
  };
}

/**
 * A match as evidence: its offsets, original text and region, and its page when the record names
 * two.
 */
export function matchOf(
  c: QuotationCase,
  m: PageMatch | PagePart,
  withPage = false,
): { page?: number; startUtf16: number; endUtf16: number; text: string; region: Region } {
  const text = c.pages.pages.get(m.page)?.text ?? "";
  return {
    ...(withPage || c.endPage !== undefined ? { page: m.page } : {}),
    startUtf16: m.startUtf16,
    endUtf16: m.endUtf16,
    text: text.slice(m.startUtf16, m.endUtf16),
    region: c.pages.regions.regionAt(m.page, m.startUtf16),
  };
}
