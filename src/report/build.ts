/**
 * Building a report: verify the records, then render each result's places from the same bytes the
 * check read, with the marks mapped into the crop's pixels.
 */
import type { OcrMode } from "../checks/cite-check/verdicts.js";
import type { EvidenceRecord } from "../checks/evidence-record.js";
import type { FlowVerifyReport } from "../checks/flow-verify.js";
import { applyOcr, DEFAULT_OCR_TIMEOUT_MS } from "../checks/ocr-quotations.js";
import type { CheckResult } from "../checks/result.js";
import { checkContext, verifyEvidence } from "../checks/verify.js";
import type { FlowDocument } from "../document/flow/model.js";
import type { Box } from "../document/model.js";
import { type OpenOptions, openDocument } from "../document/open.js";
import { renderRegion, userBoxToDevice } from "../document/render.js";
import { isCiteproofError } from "../errors.js";
import type { OcrEngineChoice } from "../ocr/tesseract.js";
import type { PdfBytes } from "../source/file.js";
import { type Passage, passagesFor } from "./passages.js";
import { MAX_PLACES, type Place, type PlaceKind, placesFor } from "./places.js";

export const DEFAULT_REPORT_DPI = 110;
/** Whole pages (for a FLAG) are shown at a resolution their words can be read at. */
export const PAGE_THUMBNAIL_DPI = 100;
/** Places marked on a span of the page's text: their marks come from glyph boxes. */
const SPAN_KINDS = new Set<PlaceKind>(["match", "closest", "page-words", "elsewhere"]);

export interface Crop {
  kind: PlaceKind;
  page: number;
  caption: string;
  /** What the image shows, in default user space; undefined for a whole page. */
  region: Box | undefined;
  dpi: number;
  png: Uint8Array;
  widthPx: number;
  heightPx: number;
  /** Marked boxes as fractions of the image (0..1, origin top-left). */
  marks: { x: number; y: number; w: number; h: number }[];
}

export interface ReportSection {
  result: CheckResult;
  crops: Crop[];
  /** Why a place could not be shown, when rendering it failed. */
  cropErrors: string[];
  /** On a flow source, instead of crops: the passages of its text the evidence points at. */
  passages?: Passage[];
}

export interface Report {
  /** The source as named (a PDF's path, or a flow source's path or URL). */
  pdf: string;
  document: { sha256: string; pages: number } | FlowVerifyReport["document"];
  sections: ReportSection[];
}

export interface ReportOptions extends OpenOptions {
  dpi?: number;
  /** OCR the cited pages whose words are an image, as verify --ocr does. */
  ocr?: OcrMode;
  /** Which OCR engine reads (default auto). */
  ocrEngine?: OcrEngineChoice;
}

export async function buildReport(
  pdf: string | PdfBytes,
  records: EvidenceRecord[],
  options: ReportOptions = {},
): Promise<Report> {
  const { dpi = DEFAULT_REPORT_DPI, ocr, ocrEngine, ...open } = options;
  const doc = await openDocument(pdf, { ...open, withGeometry: false });
  const checked = await verifyEvidence(doc, records, open);
  const context = checkContext(doc);
  // With OCR, what the text layer leaves undecided is read from the page images, as verify --ocr does.
  const report = ocr
    ? {
        ...checked,
        results: await applyOcr(context, records, checked.results, {
          mode: ocr,
          doc,
          timeoutMs: open.timeoutMs ?? DEFAULT_OCR_TIMEOUT_MS,
          ...(open.password !== undefined ? { password: open.password } : {}),
          ...(ocrEngine !== undefined ? { engine: { engine: ocrEngine } } : {}),
        }),
      }
    : checked;
  const planned = report.results.map((result) =>
    placesFor(result, {
      context,
      page: (p) => doc.pages[p - 1],
      geometry: () => undefined,
    }),
  );
  // Glyph boxes make the marks exact; they are read only for the pages that get a mark.
  const spans = planned.flat().filter((p) => SPAN_KINDS.has(p.kind));
  const markedPages = [...new Set(spans.map((p) => p.page))];
  // The same bytes: the snapshot the check read, never the path read again.
  const geometryDoc =
    markedPages.length > 0
      ? await openDocument(doc.source, { ...open, pages: markedPages, withGeometry: true })
      : undefined;
  const sections: ReportSection[] = [];
  for (const result of report.results) {
    const places = placesFor(result, {
      context,
      page: (p) => doc.pages[p - 1],
      geometry: (p) => geometryDoc?.geometry.get(p),
    }).slice(0, MAX_PLACES);
    const crops: Crop[] = [];
    const cropErrors: string[] = [];
    for (const place of places) {
      try {
        crops.push(await renderPlace(doc.source, place, dpi, open.password, open.timeoutMs));
      } catch (error) {
        if (!isCiteproofError(error)) throw error;
        cropErrors.push(`page ${place.page}: ${error.message} [${error.code}]`);
      }
    }
    sections.push({ result, crops, cropErrors });
  }
  return { pdf: typeof pdf === "string" ? pdf : pdf.origin, document: report.document, sections };
}

/** The report of records checked against a flow source: each result with its passages, no crops. */
export function buildFlowReport(origin: string, doc: FlowDocument, verified: FlowVerifyReport): Report {
  const chars = Array.from(doc.text);
  const sections = verified.results.map((result) => ({
    result,
    crops: [],
    cropErrors: [],
    passages: passagesFor(doc, chars, result),
  }));
  return { pdf: origin, document: verified.document, sections };
}

/** Renders one place from the PDF's bytes, its marks mapped into the crop's pixels. */
export async function renderPlace(
  source: PdfBytes,
  place: Place,
  dpi: number,
  password: string | undefined,
  timeoutMs: number | undefined,
): Promise<Crop> {
  const whole = place.region === "page";
  const cropDpi = whole ? Math.min(dpi, PAGE_THUMBNAIL_DPI) : dpi;
  const rendered = await renderRegion(source, place.page, place.region, cropDpi, { password, timeoutMs });
  const marks = place.marks.map((box) => {
    const px = userBoxToDevice(box, rendered.transform);
    const x0 = clamp01(px.x0 / rendered.widthPx);
    const y0 = clamp01(px.y0 / rendered.heightPx);
    const x1 = clamp01(px.x1 / rendered.widthPx);
    const y1 = clamp01(px.y1 / rendered.heightPx);
    return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  });
  return {
    kind: place.kind,
    page: place.page,
    caption: place.caption,
    region: place.region === "page" ? undefined : place.region,
    dpi: cropDpi,
    png: rendered.png,
    widthPx: rendered.widthPx,
    heightPx: rendered.heightPx,
    marks: marks.filter((m) => m.w > 0 && m.h > 0),
  };
}

function clamp01(v: number): number {
  return Math.min(1, Math.max(0, v));
}
