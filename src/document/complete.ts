/**
 * Completing a document opened for some of its pages: the pages it lacks are taken from the cache
 * (the document text file when there is one) or extracted, and the result is the document as if it
 * had been opened whole, its text layer stored as one cache file as a whole read stores it.
 */
import type { ExtractionCache } from "./cache.js";
import type { PageText } from "./model.js";
import { holdsEveryPage, type OpenedDocument, type OpenOptions, openDocument } from "./open.js";

export async function completeDocument(
  doc: OpenedDocument,
  options: Omit<OpenOptions, "pages" | "withGeometry" | "cacheGeometry"> = {},
): Promise<OpenedDocument> {
  if (holdsEveryPage(doc.pages, doc.pageCount)) return doc;
  // A warm cache has already read the document text file to give the pages asked for.
  const whole = doc.cache?.readDocumentText();
  if (whole && whole.length === doc.pageCount) return { ...doc, pages: Array.from(whole) };
  const cache = doc.cache;
  const pages = Array.from(doc.pages);
  pages.length = doc.pageCount;
  const missing: number[] = [];
  for (let page = 1; page <= doc.pageCount; page++) {
    pages[page - 1] ??= cache?.readPageText(page);
    if (!pages[page - 1]) missing.push(page);
  }
  // Extracted apart from the cache, so the pages are stored below as one file rather than one each.
  const rest = await openDocument(doc.source, { ...options, pages: missing, noCache: true });
  for (const page of missing) pages[page - 1] = rest.pages[page - 1];
  if (cache) storeText(cache, pages, missing);
  return {
    ...doc,
    pages,
    extractedPages: doc.extractedPages + rest.extractedPages,
  };
}

/** As a whole read stores it: one file when every page was read, else each new good page in its own. */
function storeText(cache: ExtractionCache, pages: (PageText | undefined)[], fresh: number[]): void {
  try {
    if (holdsEveryPage(pages, pages.length) && pages.every((page) => !page?.extractionError))
      cache.writeDocumentText(pages as PageText[]);
    else
      for (const page of fresh) {
        const text = pages[page - 1];
        if (text && !text.extractionError) cache.writePageText(text);
      }
  } catch {
    // An unwritable cache slows the next run; it never changes a result.
  }
}
