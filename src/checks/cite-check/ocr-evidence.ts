/**
 * OCR of the pages that need it within the deadline, from the cache when the same page was read
 * before by the same engine and model at the same resolution. The rest are read in small batches,
 * one engine run each, as many at once as the session allows (the system's program: one process per
 * batch); each batch's pages are cached as soon as it is read, so a deadline cuts only those unread.
 */
import type { ExtractionCache } from "../../document/cache.js";
import { CiteproofError } from "../../errors.js";
import { OCR_DPI, type OcrPage, ocrPageBatch } from "../../ocr/page-ocr.js";
import { type OcrEngineOptions, OcrSession, ocrProvenance } from "../../ocr/tesseract.js";
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
  /** Which engine reads (default: the system's tesseract when installed). */
  engine?: OcrEngineOptions;
  /**
   * The pages this call's caller has read already, by this engine (taken before the cache, and given
   * every page read): one check's quotations and labels read a page once, cache or none.
   */
  read?: Map<number, OcrPage>;
}

/** Pages read by one run of the engine: few, so a deadline cuts little of what was read. */
const PAGES_PER_RUN = 3;

/** The cache record a page's OCR reading is kept under: bound to the engine, the model and the resolution. */
export function ocrRecordKey(page: number, engine: OcrEngineOptions = {}): string {
  const p = ocrProvenance(engine);
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
    ocrProvenance(options.engine);
    recordKey = (page) => ocrRecordKey(page, options.engine);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    for (const page of pages) out.set(page, { state: "unavailable", message });
    return out;
  }
  const toRead: number[] = [];
  for (const page of pages) {
    const again = options.read?.get(page);
    if (again) {
      out.set(page, { state: "ok", ocr: again });
      continue;
    }
    const held = options.cache?.readRecord<OcrPage>(recordKey(page));
    if (held && held.page === page && Array.isArray(held.words)) {
      out.set(page, { state: "ok", ocr: held });
      options.read?.set(page, held);
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
    toRead.push(page);
  }
  if (toRead.length === 0) return out;
  const session = new OcrSession({ kind: "page" }, options.engine);
  const batches: number[][] = [];
  // Enough batches for every lane: three pages on two cores are two runs at once, not one.
  const perRun = session.readsInBatches()
    ? Math.min(PAGES_PER_RUN, Math.ceil(toRead.length / session.parallel()))
    : 1;
  for (let i = 0; i < toRead.length; i += perRun) batches.push(toRead.slice(i, i + perRun));
  const readBatch = async (batch: number[]) => {
    if (options.deadline.expired()) {
      for (const page of batch) out.set(page, { state: "cut" });
      return;
    }
    try {
      const read = await ocrPageBatch(source, batch, session, {
        timeoutMs: options.deadline.remaining(),
        password: options.password,
      });
      for (const ocr of read) {
        out.set(ocr.page, { state: "ok", ocr });
        options.read?.set(ocr.page, ocr);
        try {
          options.cache?.writeRecord(recordKey(ocr.page), ocr);
        } catch {
          // An unwritable cache slows the next run; it never changes a result.
        }
      }
    } catch (error) {
      // One page the engine could not take fails its batch: the others are read on their own.
      if (batch.length > 1 && !options.deadline.expired()) {
        for (const page of batch) await readBatch([page]);
        return;
      }
      const failed: OcrOutcome = options.deadline.expired()
        ? { state: "cut" }
        : {
            state: "unavailable",
            message:
              error instanceof CiteproofError || error instanceof Error ? error.message : String(error),
          };
      for (const page of batch) out.set(page, failed);
    }
  };
  try {
    let next = 0;
    const lane = async () => {
      while (next < batches.length) await readBatch(batches[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(session.parallel(), batches.length) }, lane));
  } finally {
    await session.close().catch(() => undefined);
  }
  return new Map(pages.filter((p) => out.has(p)).map((p) => [p, out.get(p) as OcrOutcome]));
}
