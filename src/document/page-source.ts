/**
 * A document's pages as the checks and the text layer read them: by number, each a page read or
 * undefined when the reader holds no record of it (not read yet, or past the end). A reading plan
 * that holds only some pages gives its own (reading/document-handle.ts); a document read whole gives
 * its array.
 */
import type { PageText } from "./model.js";

export interface PageSource {
  /** How many pages the document has. */
  readonly count: number;
  /** Page `page` (1-based), or undefined when there is no record of it. */
  get(page: number): PageText | undefined;
  /** The pages at hand now, in page order, without reading any (for what is decided over those read). */
  held(): PageText[];
}

/** Every page, read through `get` in page order (undefined where there is no record). */
export function everyPage(pages: PageSource): (PageText | undefined)[] {
  return Array.from({ length: pages.count }, (_, i) => pages.get(i + 1));
}

/** The pages of a document read whole (index page - 1), as a PageSource. */
export function pagesOf(pages: readonly (PageText | undefined)[]): PageSource {
  return {
    get count() {
      return pages.length;
    },
    get: (page) => pages[page - 1],
    held: () => pages.filter((p): p is PageText => p !== undefined),
  };
}

/** A PageSource as given, or the pages of an array. */
export function asPageSource(pages: PageSource | readonly (PageText | undefined)[]): PageSource {
  return isPageArray(pages) ? pagesOf(pages) : pages;
}

function isPageArray(
  pages: PageSource | readonly (PageText | undefined)[],
): pages is readonly (PageText | undefined)[] {
  return Array.isArray(pages);
}
