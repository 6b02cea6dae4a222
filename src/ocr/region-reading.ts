/**
 * OCR of small regions of a page: an equation label read again from its own crop as a single line
 * drawn only from a given set of characters (the whole page's reading may have merged it with its
 * neighbours or misread its parentheses), or a strip or band read as a page of its own. Each region
 * is rendered from the hashed bytes; a batch of them goes to one run of the engine.
 */
import type { Box } from "../document/model.js";
import { type RenderedRegion, renderRegions } from "../document/render.js";
import type { PdfBytes } from "../source/file.js";
import { OCR_PNG_COMPRESSION, type OcrWord, wordsInUserSpace } from "./page-ocr.js";
import type { OcrSession } from "./tesseract.js";

/** The characters an equation label's line may be read as: its digits, letters, dots and parentheses. */
export const LABEL_CHARACTERS = "()[]{}0123456789.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** A region of a page to read, at a resolution. */
export interface Region {
  page: number;
  box: Box;
  dpi: number;
}

/**
 * The words of each region as the session reads them (a line-mode session gives a label's line, a
 * page-mode one lays the region out as a page of its own), their boxes in default user space through
 * each render's own transform; all rendered and read within one deadline.
 */
export async function readRegions(
  source: PdfBytes,
  regions: readonly Region[],
  session: OcrSession,
  options: { timeoutMs: number; password?: string },
): Promise<OcrWord[][]> {
  const started = Date.now();
  const left = () => Math.max(1, options.timeoutMs - (Date.now() - started));
  // Each page's regions rendered together: the page's image is decoded once for them all.
  const rendered = new Array<RenderedRegion>(regions.length);
  for (const page of new Set(regions.map((r) => r.page))) {
    const at = regions.flatMap((r, i) => (r.page === page ? [i] : []));
    const images = await renderRegions(
      source,
      page,
      at.map((i) => regions[i]),
      {
        timeoutMs: left(),
        password: options.password,
        pngCompression: OCR_PNG_COMPRESSION,
        fewestChannels: true,
      },
    );
    at.forEach((i, k) => {
      rendered[i] = images[k];
    });
  }
  const read = await session.recognizeAll(
    rendered.map((r) => r.png),
    left(),
  );
  return read.map((words, i) => wordsInUserSpace(words, rendered[i].transform));
}
