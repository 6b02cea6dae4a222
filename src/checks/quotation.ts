/**
 * The quotation check: are these words on the named page? Folded comparison (case, spacing, line
 * breaks, ligatures, curly quotes, dash widths ignored); any other difference fails.
 */
import type { PageText } from "../document/model.js";
import { hasUsableText, pageLayer, type TextLayerKind } from "../document/text-layer-kind.js";
import { closestLine } from "../text/closest-line.js";
import { countWords, fold, skeletonText } from "../text/fold.js";
import type { FoldedPages } from "../text/folded-pages.js";
import { onlyNotedRegions, REGION_PHRASES, type Region } from "../text/page-regions.js";
import type { CheckResult } from "./result.js";
import { MIN_QUOTATION_WORDS } from "./verdicts.js";

export interface QuotationInput {
  id?: string;
  page?: number;
  text: string;
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
  if (page < 1 || page > pageCount) {
    return {
      ...base,
      verdict: "FAIL",
      reason: "no-such-page",
      message: `page ${page} does not exist (the PDF has ${pageCount} pages)`,
      evidence: { ...q, page, pageCount },
    };
  }
  const unread = pages.pages[page - 1]?.extractionError;
  if (unread !== undefined) {
    return {
      ...base,
      verdict: "FLAG",
      reason: "page-unreadable",
      message: `page ${page} exists but its text could not be extracted (${unread}); the words were not checked`,
      evidence: { ...q, page, extractionError: unread },
    };
  }
  const words = countWords(quoted);
  if (words < MIN_QUOTATION_WORDS) {
    return {
      ...base,
      verdict: "FLAG",
      reason: "no-quotation",
      message: `page ${page} exists; no quotation to verify: ${words} words, need ${MIN_QUOTATION_WORDS}`,
      evidence: { ...q, page, words },
    };
  }
  const pageText = pages.pages[page - 1];
  const layer: TextLayerKind = pageText ? pageLayer(pageText) : "none";
  const needle = fold(quoted, { trim: true }).text;
  const matches = pages.findOnPage(page, needle);
  if (matches.length > 0 && pageText) {
    const regions = matches.map((m) => pages.regions.regionAt(page, m.startUtf16));
    return {
      ...base,
      verdict: "PASS",
      reason: "found",
      message: `found on page ${page}${layerNote(layer)}${onlyInNote(regions)}`,
      evidence: {
        ...q,
        page,
        layer,
        matches: matches.map((m, k) => ({
          startUtf16: m.startUtf16,
          endUtf16: m.endUtf16,
          text: pageText.text.slice(m.startUtf16, m.endUtf16),
          region: regions[k],
        })),
      },
    };
  }
  const elsewhere = pages.pagesContaining(needle).filter((p) => p !== page);
  const elsewhereLayers = elsewhere.map((p) => {
    const text = pages.pages[p - 1];
    return text ? pageLayer(text) : "none";
  });
  if (!hasUsableText(layer)) {
    // Words that are an image were never read: that is no evidence they are not there.
    return {
      ...base,
      verdict: "FLAG",
      reason: "no-text-layer",
      message: `page ${page} exists, but its words are an image${layer === "sparse-over-image" ? " (its text layer holds only a stamp, header or page number)" : ""}; the wording was not checked: OCR it (cite-check --ocr) or read it yourself${elsewhere.length > 0 ? `; the words do stand on ${plural("page", elsewhere)}` : ""}`,
      evidence: {
        ...q,
        page,
        layer,
        ...(elsewhere.length > 0 ? { foundOnPages: elsewhere, foundOnLayers: elsewhereLayers } : {}),
      },
    };
  }
  if (elsewhere.length > 0) {
    return {
      ...base,
      verdict: "FAIL",
      reason: "wrong-page",
      message: `not found on page ${page}; the words are on ${plural("page", elsewhere)}`,
      evidence: { ...q, page, layer, foundOnPages: elsewhere, foundOnLayers: elsewhereLayers },
    };
  }
  const differing = pageText ? formDiffers(pages, page, pageText, quoted) : undefined;
  if (differing) {
    return {
      ...base,
      verdict: "FAIL",
      reason: "form-differs",
      message: `not found on page ${page} as quoted; the page reads "${differing.text}" (a symbol differs)`,
      evidence: {
        ...q,
        page,
        layer,
        pageWords: differing.text,
        startUtf16: differing.startUtf16,
        endUtf16: differing.endUtf16,
      },
    };
  }
  const closest = pageText ? closestLine(pageText, quoted, pages.plainView(page)) : undefined;
  return {
    ...base,
    verdict: "FAIL",
    reason: "absent",
    message: `not found on page ${page}${layerNote(layer)}${closest ? `; closest line: "${closest.text}"` : ""}`,
    evidence: {
      ...q,
      page,
      layer,
      ...(closest ? { closestLine: closest } : {}),
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
    const before = pageText.text[startUtf16 - 1] ?? " ";
    const after = pageText.text[endUtf16] ?? " ";
    if (WORD_CHAR.test(before) || WORD_CHAR.test(after)) continue;
    return { text: pageText.text.slice(startUtf16, endUtf16).replace(/\s+/g, " "), startUtf16, endUtf16 };
  }
  return undefined;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Said when every match stands in the references, a caption or a running head: words found there
 * are often not what the writer meant to cite.
 */
function onlyInNote(regions: readonly Region[]): string {
  const noted = onlyNotedRegions(regions);
  return noted ? `, but only in ${noted.map((r) => REGION_PHRASES[r]).join(" and ")}` : "";
}

/** Said of a page read from someone else's OCR layer: that reading can be wrong. */
function layerNote(layer: TextLayerKind): string {
  return layer === "ocr-layer" ? " (in the PDF's own OCR layer, which can misread)" : "";
}

function plural(word: string, pages: number[]): string {
  if (pages.length === 1) return `${word} ${pages[0]}`;
  return `${word}s ${pages.slice(0, -1).join(", ")} and ${pages[pages.length - 1]}`;
}
