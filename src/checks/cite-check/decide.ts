/**
 * The verdict for one citation from the evidence of its page: native text first; OCR where it was
 * asked for and applies. Among the candidate readings the strongest stands (exact before
 * whitespace-normalised, an undecided reading before a non-match), native text winning ties.
 */

import { EXTRACTOR_VERSION } from "../../document/model.js";
import { pageLayer } from "../../document/text-layer-kind.js";
import { evaluateOnLayer, type LayerOutcome } from "./evaluate.js";
import type { OcrOutcome } from "./ocr-evidence.js";
import { ocrLayer } from "./ocr-layer.js";
import type { PageEvidence } from "./page-evidence.js";
import type { Citation } from "./request.js";
import type { EvidenceLayer } from "./result.js";
import { nativeLayer, type TextLayer } from "./text-layer.js";
import { CITE_REASON_VERDICT, type CiteVerdict, type Normalization, type OcrMode } from "./verdicts.js";

export interface Decision extends LayerOutcome {
  layer: EvidenceLayer | null;
  /** Why evidence was missing, when it was (an engine message). */
  detail?: string;
}

const RANK: Record<CiteVerdict, number> = {
  verified_exact: 0,
  verified_normalized: 1,
  insufficient_evidence: 2,
  unmatched: 3,
};

const NATIVE: EvidenceLayer = { kind: "native_text", engine: "pdfium", extractor_version: EXTRACTOR_VERSION };

/** The native layers of pages, built once per page. */
export class PageLayers {
  private readonly native = new Map<number, TextLayer>();
  private readonly ocr = new Map<number, TextLayer>();

  nativeOf(evidence: Extract<PageEvidence, { state: "ok" }>): TextLayer {
    let layer = this.native.get(evidence.page);
    if (!layer) {
      layer = nativeLayer(evidence.text, evidence.geometry);
      this.native.set(evidence.page, layer);
    }
    return layer;
  }

  ocrOf(page: number, outcome: Extract<OcrOutcome, { state: "ok" }>): TextLayer {
    let layer = this.ocr.get(page);
    if (!layer) {
      layer = ocrLayer(outcome.ocr);
      this.ocr.set(page, layer);
    }
    return layer;
  }
}

/** True when the page's text layer is only a stamp, header or page number over a scan. */
function isSparse(evidence: PageEvidence): boolean {
  return evidence.state === "ok" && pageLayer(evidence.text) === "sparse-over-image";
}

/** True when the page has native text that can be matched, or is blank (it holds no words at all). */
export function hasNativeText(evidence: PageEvidence): evidence is Extract<PageEvidence, { state: "ok" }> {
  return evidence.state === "ok" && (evidence.text.hasTextLayer || pageLayer(evidence.text) === "blank");
}

/** The native reading of a citation, or undefined where the page has no usable native text. */
export function nativeOutcome(
  citation: Citation,
  evidence: PageEvidence,
  normalization: Normalization,
  layers: PageLayers,
): LayerOutcome | undefined {
  if (!hasNativeText(evidence)) return undefined;
  return evaluateOnLayer(layers.nativeOf(evidence), citation, normalization);
}

/** Whether OCR applies to a page under the mode, given the native readings of its citations. */
export function wantsOcr(
  mode: OcrMode | undefined,
  evidence: PageEvidence,
  nativeReadings: (LayerOutcome | undefined)[],
): boolean {
  if (!mode || evidence.state === "out_of_range" || evidence.state === "cut") return false;
  if (!hasNativeText(evidence)) return true;
  // auto reads a scan with a stamp for a text layer as it reads one with none: unless the stamp holds the quote.
  if (isSparse(evidence)) return nativeReadings.some((r) => r?.reason !== "exact_in_box");
  return mode === "tesseract" && nativeReadings.some((r) => r?.reason !== "exact_in_box");
}

export function decide(
  citation: Citation,
  evidence: PageEvidence,
  native: LayerOutcome | undefined,
  ocr: OcrOutcome | undefined,
  normalization: Normalization,
  layers: PageLayers,
): Decision {
  if (evidence.state === "out_of_range")
    return { reason: "page_out_of_range", locations: [], occurrences: 0, layer: null };
  if (evidence.state === "cut")
    return { reason: "deadline_exceeded", locations: [], occurrences: 0, layer: null };
  const candidates: Decision[] = [];
  // On a scan whose text layer is a stamp, only a match in that stamp counts: its absence there says
  // nothing about the page's words, which are an image.
  const sparse = isSparse(evidence);
  if (native && (!sparse || CITE_REASON_VERDICT[native.reason].startsWith("verified"))) {
    candidates.push({ ...native, layer: NATIVE });
    if (native.reason === "exact_in_box") return candidates[0];
  }
  // A page the engine failed on renders no better: without an OCR reading it stays an extraction failure.
  if (evidence.state === "failed" && ocr?.state !== "ok")
    return {
      reason: "extraction_failed",
      locations: [],
      occurrences: 0,
      layer: null,
      detail: evidence.error,
    };
  if (ocr?.state === "ok") {
    const reading = evaluateOnLayer(layers.ocrOf(citation.page, ocr), citation, normalization);
    candidates.push({ ...reading, layer: ocrEvidence(ocr) });
  } else if (ocr?.state === "unavailable" || ocr?.state === "refused") {
    candidates.push({
      reason: "ocr_unavailable",
      locations: [],
      occurrences: 0,
      layer: null,
      detail: ocr.message,
    });
  } else if (ocr?.state === "cut") {
    candidates.push({ reason: "deadline_exceeded", locations: [], occurrences: 0, layer: null });
  }
  if (candidates.length === 0 && sparse)
    return { reason: "incomplete_text_layer", locations: [], occurrences: 0, layer: NATIVE };
  if (candidates.length === 0)
    return { reason: "no_text_layer", locations: [], occurrences: 0, layer: NATIVE };
  let best = candidates[0];
  for (const c of candidates.slice(1)) {
    if (RANK[CITE_REASON_VERDICT[c.reason]] < RANK[CITE_REASON_VERDICT[best.reason]]) best = c;
  }
  return best;
}

function ocrEvidence(outcome: Extract<OcrOutcome, { state: "ok" }>): EvidenceLayer {
  const { ocr } = outcome;
  return {
    kind: "ocr",
    ...ocr.provenance,
    render: ocr.render,
    render_evidence_id: `render:sha256:${ocr.render.png_sha256}`,
  };
}
