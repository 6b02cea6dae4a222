/**
 * OCR of a whole page: the page is rendered by the PDF engine from the same bytes that were
 * hashed, read by the OCR engine, and every word box is mapped back to default user space through
 * the render's inverse transform (CropBox origin and /Rotate included), never by dividing by scale.
 */
import type { Box } from "../document/model.js";
import { deviceBoxToUser, type RenderTransform, renderRegion } from "../document/render.js";
import type { PdfBytes } from "../source/file.js";
import { sha256Hex } from "../source/file.js";
import type { OcrProvenance, OcrSession, OcrWordPx } from "./tesseract.js";

/** Resolution pages are rendered at for OCR. */
export const OCR_DPI = 300;

export interface OcrWord {
  text: string;
  /** In default user space, bottom-left origin. */
  box: Box;
  confidence: number;
  line: number;
}

export interface OcrPage {
  page: number;
  words: OcrWord[];
  render: { dpi: number; width_px: number; height_px: number; png_sha256: string };
  provenance: OcrProvenance;
}

export interface OcrPageOptions {
  dpi?: number;
  /** Deadline for render and recognition together, in milliseconds. */
  timeoutMs: number;
  password?: string;
}

export async function ocrPage(
  source: PdfBytes,
  page: number,
  session: OcrSession,
  options: OcrPageOptions,
): Promise<OcrPage> {
  const started = Date.now();
  const dpi = options.dpi ?? OCR_DPI;
  const rendered = await renderRegion(source, page, "page", dpi, {
    timeoutMs: Math.max(1, options.timeoutMs),
    password: options.password,
  });
  const left = options.timeoutMs - (Date.now() - started);
  const wordsPx = await session.recognize(rendered.png, Math.max(1, left));
  const words = wordsInUserSpace(wordsPx, rendered.transform);
  return {
    page,
    words,
    render: {
      dpi,
      width_px: rendered.widthPx,
      height_px: rendered.heightPx,
      png_sha256: sha256Hex(rendered.png),
    },
    provenance: session.provenance(),
  };
}

/** Words read from a render, their boxes mapped back to default user space through its transform. */
export function wordsInUserSpace(words: readonly OcrWordPx[], transform: RenderTransform): OcrWord[] {
  return words.map((w) => ({
    text: w.text,
    box: deviceBoxToUser(w.x0, w.y0, w.x1, w.y1, transform),
    confidence: w.confidence,
    line: w.line,
  }));
}
