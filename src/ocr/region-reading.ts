/**
 * OCR of one small region of a page as a single line, drawn only from a given set of characters:
 * an equation label read again from its own crop, where the whole page's reading may have merged
 * it with its neighbours or misread its parentheses. The region is rendered from the hashed bytes.
 */
import type { Box } from "../document/model.js";
import { renderRegion } from "../document/render.js";
import type { PdfBytes } from "../source/file.js";
import { type OcrWord, wordsInUserSpace } from "./page-ocr.js";
import type { OcrSession } from "./tesseract.js";

/** The characters an equation label's line may be read as: its digits, letters, dots and parentheses. */
export const LABEL_CHARACTERS = "()[]{}0123456789.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

export interface RegionReading {
  /** The words read, joined without spaces (a label has none). */
  text: string;
  dpi: number;
}

export async function readRegion(
  source: PdfBytes,
  page: number,
  box: Box,
  session: OcrSession,
  options: RegionOptions,
): Promise<RegionReading> {
  const { words } = await recognizeRegion(source, page, box, session, options);
  return { text: words.map((w) => w.text).join(""), dpi: options.dpi };
}

/**
 * The words of a region of a page as the session reads them (a page-mode session lays the region
 * out as a page of its own), their boxes in default user space through the render's own transform.
 */
export async function readRegionWords(
  source: PdfBytes,
  page: number,
  box: Box,
  session: OcrSession,
  options: RegionOptions,
): Promise<OcrWord[]> {
  const { words, transform } = await recognizeRegion(source, page, box, session, options);
  return wordsInUserSpace(words, transform);
}

type RegionOptions = { dpi: number; timeoutMs: number; password?: string };

/** The region rendered from the hashed bytes and read, within one deadline for both. */
async function recognizeRegion(
  source: PdfBytes,
  page: number,
  box: Box,
  session: OcrSession,
  options: RegionOptions,
) {
  const started = Date.now();
  const rendered = await renderRegion(source, page, box, options.dpi, {
    timeoutMs: Math.max(1, options.timeoutMs),
    password: options.password,
  });
  const left = options.timeoutMs - (Date.now() - started);
  const words = await session.recognize(rendered.png, Math.max(1, left));
  return { words, transform: rendered.transform };
}
