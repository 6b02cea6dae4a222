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

/** The zlib level of images rendered for OCR: read once and thrown away, fast to encode beats small. */
export const OCR_PNG_COMPRESSION = 1;

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
  return (await ocrPageBatch(source, [page], session, options))[0];
}

/** Several pages rendered, then read together by one run of the engine, within one deadline. */
export async function ocrPageBatch(
  source: PdfBytes,
  pages: readonly number[],
  session: OcrSession,
  options: OcrPageOptions,
): Promise<OcrPage[]> {
  const started = Date.now();
  const left = () => Math.max(1, options.timeoutMs - (Date.now() - started));
  const dpi = options.dpi ?? OCR_DPI;
  const rendered: Awaited<ReturnType<typeof renderRegion>>[] = [];
  for (const page of pages)
    rendered.push(
      await renderRegion(source, page, "page", dpi, {
        timeoutMs: left(),
        password: options.password,
        pngCompression: OCR_PNG_COMPRESSION,
        fewestChannels: true,
      }),
    );
  const read = await session.recognizeAll(
    rendered.map((r) => r.png),
    left(),
  );
  const provenance = session.provenance();
  return pages.map((page, i) => ({
    page,
    words: wordsInUserSpace(read[i], rendered[i].transform),
    render: {
      dpi,
      width_px: rendered[i].widthPx,
      height_px: rendered[i].heightPx,
      png_sha256: sha256Hex(rendered[i].png),
    },
    provenance,
  }));
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
