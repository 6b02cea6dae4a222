/**
 * Verdicts, reasons and geometry levels of the located quote check: closed lists, defined once,
 * each with the one thing it promises.
 */

export const CITE_VERDICTS = [
  "verified_exact",
  "verified_normalized",
  "unmatched",
  "insufficient_evidence",
] as const;
export type CiteVerdict = (typeof CITE_VERDICTS)[number];

export const CITE_VERDICT_MEANINGS: Record<CiteVerdict, string> = {
  verified_exact:
    "the quote's exact characters occur on the page with every non-whitespace character inside the box",
  verified_normalized:
    "exact matching failed, but with whitespace_v1 the quote occurs with every non-whitespace character inside the box",
  unmatched: "the page's complete text and geometry were checked and do not support the quote in the box",
  insufficient_evidence: "the evidence needed to decide was not available; this is no evidence either way",
};

export const CITE_REASONS = [
  "exact_in_box",
  "normalized_in_box",
  "outside_box",
  "not_on_page",
  "page_out_of_range",
  "source_hash_mismatch",
  "no_text_layer",
  "incomplete_text_layer",
  "extraction_failed",
  "deadline_exceeded",
  "ocr_unavailable",
  "geometry_missing",
  "output_budget_exceeded",
] as const;
export type CiteReason = (typeof CITE_REASONS)[number];

/** The verdict each reason belongs to: a reason never appears with another verdict. */
export const CITE_REASON_VERDICT: Record<CiteReason, CiteVerdict> = {
  exact_in_box: "verified_exact",
  normalized_in_box: "verified_normalized",
  outside_box: "unmatched",
  not_on_page: "unmatched",
  page_out_of_range: "unmatched",
  source_hash_mismatch: "insufficient_evidence",
  no_text_layer: "insufficient_evidence",
  incomplete_text_layer: "insufficient_evidence",
  extraction_failed: "insufficient_evidence",
  deadline_exceeded: "insufficient_evidence",
  ocr_unavailable: "insufficient_evidence",
  geometry_missing: "insufficient_evidence",
  output_budget_exceeded: "insufficient_evidence",
};

export const CITE_REASON_MEANINGS: Record<CiteReason, string> = {
  exact_in_box: "the exact quote occurs on the page with every non-whitespace character inside the box",
  normalized_in_box:
    "the quote occurs, whitespace runs collapsed, with every non-whitespace character inside the box",
  outside_box:
    "the quote occurs on the page, but every occurrence has at least one character outside the box",
  not_on_page: "the quote does not occur in the page's text",
  page_out_of_range: "the page does not exist in the source",
  source_hash_mismatch: "the source's sha256 differs from the expected one; nothing was extracted",
  no_text_layer: "the page has no native text and OCR was not requested",
  incomplete_text_layer:
    "the page is an image whose text layer holds only a stamp, a header or a page number (sparse-over-image), the quote is not in that text, and OCR was not requested",
  extraction_failed: "the page's text could not be extracted",
  deadline_exceeded: "the deadline ran out before this page's text or OCR was complete",
  ocr_unavailable: "OCR was requested but could not run on this page",
  geometry_missing:
    "the quote occurs, but a character has no box, so containment in the box cannot be established",
  output_budget_exceeded:
    "the supporting locations would exceed the output budget; no truncated proof is given",
};

/**
 * How a supporting box was measured. `glyph`: the engine's exact glyph box of each character;
 * `text_item`: a whole text item's box; `ocr_word`, `ocr_region`: boxes read by OCR from a
 * rendering; `mixed`: a span whose boxes come from more than one level (each box then names its own).
 */
export const GEOMETRY_LEVELS = ["glyph", "text_item", "ocr_word", "ocr_region", "mixed"] as const;
export type GeometryLevel = (typeof GEOMETRY_LEVELS)[number];

export const NORMALIZATIONS = ["none", "whitespace_v1"] as const;
export type Normalization = (typeof NORMALIZATIONS)[number];

export const OCR_MODES = ["auto", "tesseract"] as const;
export type OcrMode = (typeof OCR_MODES)[number];

export const OCR_MODE_MEANINGS: Record<OcrMode, string> = {
  auto: "OCR only the cited pages that have no native text, or only a stamp, header or page number over a scan",
  tesseract: "OCR also the cited pages where native text does not give verified_exact",
};
