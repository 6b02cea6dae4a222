/** The located quote check's output: one result per citation and the report around them. */
import type { OcrProvenance } from "../../ocr/tesseract.js";
import type { FoundElsewhere } from "./evaluate.js";
import type { CiteLocation } from "./locations.js";
import type { CiteReason, CiteVerdict, Normalization, OcrMode } from "./verdicts.js";

/** Which evidence decided a result. */
export type EvidenceLayer =
  | { kind: "native_text"; engine: "pdfium"; extractor_version: string }
  | (OcrProvenance & {
      kind: "ocr";
      render: { dpi: number; width_px: number; height_px: number; png_sha256: string };
      /** Identifies the rendered image the words were read from. */
      render_evidence_id: string;
    });

export interface CiteCheckResult {
  id?: string;
  verdict: CiteVerdict;
  reason: CiteReason;
  message: string;
  /** One-based physical page, as cited. */
  page: number;
  source_sha256: string;
  /** Supported occurrences (at most eight); empty unless the verdict is verified_*. */
  locations: CiteLocation[];
  evidence_layer: EvidenceLayer | null;
  /**
   * Only for outside_box (where on the page the quote does occur) and for not_on_page when the quote
   * occurs with its letters in another case (`case_differs`): at most three, never support.
   */
  found_elsewhere?: FoundElsewhere[];
}

export interface CiteCheckReport {
  operation: "cite_check";
  source: {
    origin: string;
    sha256: string;
    /** Null when the page count was never read (hash mismatch, or a deadline before extraction). */
    pages: number | null;
    bytes: number;
  };
  options: {
    normalization: Normalization;
    ocr: OcrMode | null;
    timeout_ms: number;
    max_output_chars: number;
  };
  results: CiteCheckResult[];
  summary: Record<CiteVerdict, number>;
  /** UTF-16 units of supporting locations in the output (JSON), counted against max_output_chars. */
  output_chars: number;
  /** Cited pages extracted now (the rest came from the cache). */
  extracted_pages: number;
  /** Pages OCR was asked to read (from the cache or now), ascending. */
  ocr_pages: number[];
}
