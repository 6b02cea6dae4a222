/**
 * Completing a document opened for some of its pages: the pages it lacks are taken from the cache
 * or extracted, and stored as one document text file as a whole read stores it. With a cache, they
 * are not held: each is given to the caller as it comes in (to index it), written to the file and
 * let go, and read back a page at a time when a check reaches for it, so memory holds a few pages,
 * not the document. Without a cache (or when its file cannot be started) every page is held.
 */
import type { DocumentTextWriter, ExtractionCache } from "./cache.js";
import type { PageText } from "./model.js";
import { type OpenedDocument, type OpenOptions, openDocument } from "./open.js";

export interface RestOfDocument {
  /**
   * A page not held in the array given: read back from the cache (the last few read are kept);
   * undefined when the cache lost it since.
   */
  readPage(page: number): PageText | undefined;
  /** Whether the engine failed on some page (such a page is held, with its extractionError). */
  anyUnreadable: boolean;
  /** How many pages were extracted now. */
  extractedPages: number;
}

/** How many pages read back are kept, for checks that reach for the same few pages again. */
const PAGES_KEPT = 32;

/**
 * Reads the pages `doc` lacks. `pages` (indexed by page - 1, holding doc's pages) receives the pages
 * that are held: those the engine failed on, and every page when there is no cache to read them
 * back from; the pages it held are let go once stored (read back through readPage). `onPage` is called with each page `pages` did not hold, as it comes in; without it, a
 * page the cache already holds is not read now at all.
 */
export async function readRestOfDocument(
  doc: OpenedDocument,
  pages: (PageText | undefined)[],
  options: Omit<OpenOptions, "pages" | "withGeometry" | "cacheGeometry" | "onPageText" | "holdPages"> = {},
  onPage?: (text: PageText) => void,
): Promise<RestOfDocument> {
  const cache = doc.cache;
  const count = doc.pageCount;
  let anyUnreadable = false;
  const notHeld: number[] = [];
  for (let page = 1; page <= count; page++) {
    const text = pages[page - 1];
    if (!text) notHeld.push(page);
    else if (text.extractionError !== undefined) anyUnreadable = true;
  }
  const rest = { readPage: readBack(cache), anyUnreadable, extractedPages: 0 };
  if (notHeld.length === 0) return rest;
  if (cache && notHeld.every((page) => cache.storesPage(page))) {
    if (!onPage) return rest;
    const stored = notHeld.map((page) => rest.readPage(page));
    // A stored page that no longer reads back is extracted below with the others.
    if (stored.every((text) => text !== undefined)) {
      for (const text of stored) onPage(text);
      return rest;
    }
  }

  let writer = cache ? startWriter(cache, count) : undefined;
  const keep = (text: PageText) => {
    if (writer && !text.extractionError) {
      try {
        writer.add(text);
        return;
      } catch {
        // A page that cannot be stored is held, as are those after it.
        writer.abandon();
        writer = undefined;
      }
    }
    pages[text.page - 1] = text;
  };
  const missing: number[] = [];
  // The pages held before that are stored: let go once the file is in place.
  const storedHeld: number[] = [];
  for (let page = 1; page <= count; page++) {
    const text = pages[page - 1];
    if (text) {
      if (writer && !text.extractionError) {
        keep(text);
        if (writer) storedHeld.push(page);
      }
      continue;
    }
    const stored = cache?.readPageText(page);
    if (!stored) {
      missing.push(page);
      continue;
    }
    onPage?.(stored);
    keep(stored);
  }
  if (missing.length > 0) {
    // Extracted apart from the cache: the pages are stored below as one file rather than one each.
    try {
      const extracted = await openDocument(doc.source, {
        ...options,
        pages: missing,
        noCache: true,
        holdPages: false,
        onPageText: (text) => {
          if (text.extractionError !== undefined) anyUnreadable = true;
          onPage?.(text);
          keep(text);
        },
      });
      rest.extractedPages = extracted.extractedPages;
    } catch (error) {
      // A read that fails (its deadline passed) leaves no unfinished file behind.
      writer?.abandon();
      throw error;
    }
    rest.anyUnreadable = anyUnreadable;
  }
  if (writer) {
    try {
      writer.finish();
      for (const page of storedHeld) pages[page - 1] = undefined;
    } catch {
      // An unwritable cache slows the next run: a page it lost is read again (readPage gives none).
      writer.abandon();
    }
  }
  return rest;
}

function startWriter(cache: ExtractionCache, count: number): DocumentTextWriter | undefined {
  try {
    return cache.documentTextWriter(count);
  } catch {
    return undefined;
  }
}

function readBack(cache: ExtractionCache | undefined): (page: number) => PageText | undefined {
  const recent = new Map<number, PageText>();
  return (page) => {
    let text = recent.get(page);
    if (text) {
      recent.delete(page);
    } else {
      text = cache?.readPageText(page);
      if (!text) return undefined;
      if (recent.size >= PAGES_KEPT) recent.delete(recent.keys().next().value as number);
    }
    recent.set(page, text);
    return text;
  };
}
