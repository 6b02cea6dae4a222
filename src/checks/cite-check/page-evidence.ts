/**
 * Extracting only the cited pages, text and glyph geometry, from the cache when present, within
 * the deadline. A page the engine could not read, or one the deadline cut off, is recorded as such
 * (the rest stand); pages already extracted when the deadline struck are recovered from the cache.
 */
import { defaultCacheDir, ExtractionCache } from "../../document/cache.js";
import type { PageGeometry, PageText } from "../../document/model.js";
import { openDocument } from "../../document/open.js";
import { CiteproofError } from "../../errors.js";
import type { PdfBytes } from "../../source/file.js";
import type { Deadline } from "../../util/deadline.js";

export type PageEvidence =
  | { page: number; state: "ok"; text: PageText; geometry: PageGeometry }
  | { page: number; state: "failed"; error: string }
  | { page: number; state: "out_of_range" }
  | { page: number; state: "cut" };

export interface CitedPages {
  /** Undefined only when the deadline struck before the page count was known. */
  pageCount: number | undefined;
  pages: Map<number, PageEvidence>;
  /** Pages extracted now rather than read from the cache. */
  extractedPages: number;
  cache: ExtractionCache | undefined;
}

export interface ExtractOptions {
  cacheDir?: string;
  noCache?: boolean;
  password?: string;
  deadline: Deadline;
}

export async function extractCitedPages(
  source: PdfBytes,
  pages: readonly number[],
  options: ExtractOptions,
): Promise<CitedPages> {
  const wanted = [...new Set(pages)].sort((a, b) => a - b);
  try {
    const doc = await openDocument(source, {
      cacheDir: options.cacheDir,
      noCache: options.noCache,
      password: options.password,
      timeoutMs: Math.max(1, options.deadline.remaining()),
      pages: wanted,
      withGeometry: true,
    });
    const out = new Map<number, PageEvidence>();
    for (const page of wanted) {
      if (page > doc.pageCount) {
        out.set(page, { page, state: "out_of_range" });
        continue;
      }
      const text = doc.pages[page - 1];
      const geometry = doc.geometry.get(page);
      if (!text) out.set(page, { page, state: "failed", error: "the page was not extracted" });
      else if (text.extractionError) out.set(page, { page, state: "failed", error: text.extractionError });
      else if (!geometry) out.set(page, { page, state: "failed", error: "the page's geometry is missing" });
      else out.set(page, { page, state: "ok", text, geometry });
    }
    return { pageCount: doc.pageCount, pages: out, extractedPages: doc.extractedPages, cache: doc.cache };
  } catch (error) {
    if (!(error instanceof CiteproofError) || error.code !== "EXTRACTION_TIMEOUT") throw error;
    return recoverAfterDeadline(source, wanted, options);
  }
}

function recoverAfterDeadline(source: PdfBytes, wanted: number[], options: ExtractOptions): CitedPages {
  const cache = options.noCache
    ? undefined
    : new ExtractionCache(options.cacheDir ?? defaultCacheDir(), source.sha256);
  const pageCount = cache?.readDoc()?.pageCount;
  const out = new Map<number, PageEvidence>();
  for (const page of wanted) {
    if (pageCount !== undefined && page > pageCount) {
      out.set(page, { page, state: "out_of_range" });
      continue;
    }
    const text = cache?.readPageText(page);
    const geometry = text ? cache?.readPageGeometry(page) : undefined;
    if (text && geometry && !text.extractionError) out.set(page, { page, state: "ok", text, geometry });
    else out.set(page, { page, state: "cut" });
  }
  return { pageCount, pages: out, extractedPages: 0, cache };
}
