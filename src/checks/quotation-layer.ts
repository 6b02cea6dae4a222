/**
 * Where the words of a quotation were read: the text layer of each page named (`layer`), the region
 * of each match, and the FLAG for a page whose words are an image (never read, so no evidence that
 * the words are not there).
 */
import { hasUsableText, pageLayer, type TextLayerKind } from "../document/text-layer-kind.js";
import { onlyNotedRegions, REGION_PHRASES, type Region } from "../text/page-regions.js";
import { listOf } from "./printed-page.js";
import type { QuotationCase } from "./quotation.js";
import type { CheckResult } from "./result.js";
import { ocrAdvice } from "./setting-names.js";

export function layerOfPage(c: Pick<QuotationCase, "pages">, page: number): TextLayerKind {
  const text = c.pages.pages.get(page);
  return text ? pageLayer(text) : "none";
}

/** Said of a page read from someone else's OCR layer: that reading can be wrong. */
export function layerNote(layer: TextLayerKind): string {
  return layer === "ocr-layer" ? " (in the PDF's own OCR layer, which can misread)" : "";
}

/**
 * Said when every match stands in the references, a caption or a running head: words found there
 * are often not what the writer meant to cite.
 */
export function onlyInNote(regions: readonly Region[]): string {
  const noted = onlyNotedRegions(regions);
  return noted ? `, but only in ${noted.map((r) => REGION_PHRASES[r]).join(" and ")}` : "";
}

/** FLAG no-text-layer when a page named holds its words as an image; undefined when every page was read. */
export function unreadPageFlag(c: QuotationCase, needle: string): CheckResult | undefined {
  const named = c.endPage === undefined ? [c.page] : [c.page, c.endPage];
  const unread = named.find((p) => !hasUsableText(layerOfPage(c, p)));
  if (unread === undefined) return undefined;
  const layer = layerOfPage(c, unread);
  const elsewhere = c.pages.pagesContaining(needle).filter((p) => !named.includes(p));
  const stamp =
    layer === "sparse-over-image" ? " (its text layer holds only a stamp, header or page number)" : "";
  const also =
    elsewhere.length > 0
      ? `; the words do stand on ${elsewhere.length === 1 ? "page" : "pages"} ${listOf(elsewhere)}`
      : "";
  return {
    ...c.base,
    verdict: "FLAG",
    reason: "no-text-layer",
    message: `page ${unread} exists, but its words are an image${stamp}; the wording was not checked: ${ocrAdvice()}read it yourself${also}`,
    evidence: {
      ...c.evidence,
      ...(elsewhere.length > 0
        ? { foundOnPages: elsewhere, foundOnLayers: elsewhere.map((p) => layerOfPage(c, p)) }
        : {}),
    },
  };
}
