/**
 * Completing a document opened for some of its pages: the pages it lacks are taken from the cache
 * (the document text file when there is one) or extracted, and the result is the document as if it
 * had been opened whole, its text layer stored as one cache file as a whole read stores it.
 */
import type { PageText } from "./model.js";
import { type OpenedDocument, type OpenOptions, openDocument } from "./open.js";

export async function completeDocument(
  doc: OpenedDocument,
  options: Omit<OpenOptions, "pages"> = {},
): Promise<OpenedDocument> {
  if (holdsEveryPage(doc.pages, doc.pageCount)) return doc;
  // A warm cache has already read the document text file to give the pages asked for.
  const whole = doc.cache?.readDocumentText();
  if (whole && whole.length === doc.pageCount) return { ...doc, pages: Array.from(whole) };
  const missing: number[] = [];
  for (let page = 1; page <= doc.pageCount; page++) if (!doc.pages[page - 1]) missing.push(page);
  const rest = await openDocument(doc.source, { ...options, pages: missing });
  const pages = Array.from({ length: doc.pageCount }, (_, i) => doc.pages[i] ?? rest.pages[i]);
  const cache = doc.cache;
  if (cache && holdsEveryPage(pages, doc.pageCount) && pages.every((page) => !page?.extractionError)) {
    try {
      cache.writeDocumentText(pages as PageText[]);
    } catch {
      // An unwritable cache slows the next run; it never changes a result.
    }
  }
  return {
    ...doc,
    pages,
    geometry: new Map([...doc.geometry, ...rest.geometry]),
    extractedPages: doc.extractedPages + rest.extractedPages,
  };
}

/** Whether every page is held (a loop: `every` skips the holes of a sparse array). */
export function holdsEveryPage(pages: readonly (PageText | undefined)[], pageCount: number): boolean {
  if (pages.length !== pageCount) return false;
  for (let i = 0; i < pageCount; i++) if (pages[i] === undefined) return false;
  return true;
}
