/**
 * OCR of the pages that need it, one after the other within the deadline, from the cache when the
 * same page was read before by the same engine and model at the same resolution.
 */
import type { ExtractionCache } from "../../document/cache.js";
import { CiteproofError } from "../../errors.js";
import { OCR_DPI, type OcrPage, ocrPage } from "../../ocr/page-ocr.js";
import { OcrSession, ocrProvenance } from "../../ocr/tesseract.js";
import type { PdfBytes } from "../../source/file.js";
import type { Deadline } from "../../util/deadline.js";
import { derivationKey } from "../../util/derivation.js";

export type OcrOutcome =
  | { state: "ok"; ocr: OcrPage }
  | { state: "unavailable"; message: string }
  /** Not tried: the page's image is too large to render safely. */
  | { state: "refused"; code: "OCR_IMAGE_TOO_LARGE"; message: string }
  | { state: "cut" };

/**
 * The largest image, in its own pixels, a page may hold for OCR: decoding a larger one (20,000 x
 * 20,000 is 400 million pixels) could exhaust the engine's memory, so such a page is refused.
 */
export const OCR_MAX_IMAGE_PIXELS = 100_000_000;

export interface OcrEvidenceOptions {
  deadline: Deadline;
  cache: ExtractionCache | undefined;
  password?: string;
  /** The pixels of each page's largest image (PageText.largestImagePixels), for the size limit. */
  imagePixels?: (page: number) => number;
}

/** The cache record a page's OCR reading is kept under: bound to the engine, the model and the resolution. */
export function ocrRecordKey(page: number): string {
  const p = ocrProvenance();
  return `ocr-${p.provider}-${p.provider_version}-${p.model_sha256.slice(0, 16)}-${derivationKey("ocr-page")}-${OCR_DPI}-p${page}`;
}

export async function ocrPages(
  source: PdfBytes,
  pages: readonly number[],
  options: OcrEvidenceOptions,
): Promise<Map<number, OcrOutcome>> {
  const out = new Map<number, OcrOutcome>();
  if (pages.length === 0) return out;
  let recordKey: (page: number) => string;
  try {
    ocrProvenance();
    recordKey = ocrRecordKey;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    for (const page of pages) out.set(page, { state: "unavailable", message });
    return out;
  }
  const session = new OcrSession();
  try {
    for (const page of pages) {
      const held = options.cache?.readRecord<OcrPage>(recordKey(page));
      if (held && held.page === page && Array.isArray(held.words)) {
        out.set(page, { state: "ok", ocr: held });
        continue;
      }
      const pixels = options.imagePixels?.(page) ?? 0;
      if (pixels > OCR_MAX_IMAGE_PIXELS) {
        out.set(page, {
          state: "refused",
          code: "OCR_IMAGE_TOO_LARGE",
          message: `page ${page} holds an image of ${pixels} pixels, over the limit of ${OCR_MAX_IMAGE_PIXELS} for OCR`,
        });
        continue;
      }
      if (options.deadline.expired()) {
        out.set(page, { state: "cut" });
        continue;
      }
      try {
        const ocr = await ocrPage(source, page, session, {
          timeoutMs: options.deadline.remaining(),
          password: options.password,
        });
        out.set(page, { state: "ok", ocr });
        try {
          options.cache?.writeRecord(recordKey(page), ocr);
        } catch {
          // An unwritable cache slows the next run; it never changes a result.
        }
      } catch (error) {
        if (options.deadline.expired()) out.set(page, { state: "cut" });
        else
          out.set(page, {
            state: "unavailable",
            message:
              error instanceof CiteproofError || error instanceof Error ? error.message : String(error),
          });
      }
    }
  } finally {
    await session.close().catch(() => undefined);
  }
  return out;
}
