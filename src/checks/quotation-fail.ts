/**
 * A quotation that is not where the record says: on another page (`wrong-page`), on the page with a
 * symbol changed (`form-differs`), or not there (`absent`). Each FAIL carries a repair hint.
 */
import type { PageText } from "../document/model.js";
import { skeletonText } from "../text/fold.js";
import { type FoldedPages, onWordBoundaries } from "../text/folded-pages.js";
import { listOf, pageWithLabel } from "./printed-page.js";
import type { QuotationCase } from "./quotation.js";
import { layerNote, layerOfPage } from "./quotation-layer.js";
import { absentHint, formHint, wrongPageHint } from "./repair-hint.js";
import type { CheckResult } from "./result.js";

export function failNotFound(c: QuotationCase, needle: string): CheckResult {
  const { base, pages, labels, page, quoted, evidence } = c;
  const named = c.endPage === undefined ? [page] : [page, c.endPage];
  const where = c.endPage === undefined ? `page ${page}` : `pages ${page}-${c.endPage}`;
  const elsewhere = pages.pagesContaining(needle).filter((p) => !named.includes(p));
  if (elsewhere.length > 0) return wrongPage(c, elsewhere);
  const pageText = pages.pages.get(page);
  const differing = pageText ? formDiffers(pages, page, pageText, quoted) : undefined;
  if (differing && pageText) {
    const hint = formHint(
      quoted,
      pageText.text.slice(differing.startUtf16, differing.endUtf16),
      page,
      labels,
    );
    return {
      ...base,
      verdict: "FAIL",
      reason: "form-differs",
      message: `not found on page ${page} as quoted; the page reads "${differing.text}" (${hint.text})`,
      evidence: {
        ...evidence,
        pageWords: differing.text,
        startUtf16: differing.startUtf16,
        endUtf16: differing.endUtf16,
        hint,
      },
    };
  }
  const hint = absentHint(pages, labels, page, quoted);
  return {
    ...base,
    verdict: "FAIL",
    reason: "absent",
    message: `not found on ${where}${layerNote(layerOfPage(c, page))}${hint ? `; ${hint.text}` : ""}`,
    evidence: { ...evidence, ...(hint ? { hint } : {}) },
  };
}

/** FAIL wrong-page: the words are on the other pages named, each with its printed label. */
export function wrongPage(c: QuotationCase, elsewhere: number[]): CheckResult {
  const where = c.endPage === undefined ? `page ${c.page}` : `pages ${c.page}-${c.endPage}`;
  return {
    ...c.base,
    verdict: "FAIL",
    reason: "wrong-page",
    message: `not found on ${where}; the words are on ${listOf(elsewhere.map((p) => pageWithLabel(c.labels, p)))}`,
    evidence: {
      ...c.evidence,
      foundOnPages: elsewhere,
      foundOnLayers: elsewhere.map((p) => layerOfPage(c, p)),
      foundOnPrintedPages: elsewhere.map((p) => c.labels.of(p)?.label ?? null),
      hint: wrongPageHint(c.labels, elsewhere[0]),
    },
  };
}

function formDiffers(
  pages: FoldedPages,
  page: number,
  pageText: PageText,
  quoted: string,
): { text: string; startUtf16: number; endUtf16: number } | undefined {
  const needle = skeletonText(quoted);
  const view = pages.skeletonView(page);
  if (!view || needle.length === 0) return undefined;
  for (let at = view.text.indexOf(needle); at >= 0; at = view.text.indexOf(needle, at + 1)) {
    const startUtf16 = view.startUtf16[at];
    const endUtf16 = view.endUtf16[at + needle.length - 1];
    // The page's words there must stand whole: no word and no number cut at either end.
    if (!onWordBoundaries(pageText.text, startUtf16, pageText.text.slice(startUtf16, endUtf16))) continue;
    return { text: pageText.text.slice(startUtf16, endUtf16).replace(/\s+/g, " "), startUtf16, endUtf16 };
  }
  return undefined;
}
