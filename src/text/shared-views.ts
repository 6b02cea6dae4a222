/**
 * Folded views of pages kept across runs in this process, by the page's text object: a resident
 * server's calls on one paper fold each page once, not once a call. A view depends on the page's text
 * alone (its text, line-end hyphens and script breaks, with the reading and flow its key names), and a
 * PageText is never changed once made (the cache hands out one object per page while its file stands),
 * so the object names what was folded. The least recently used pages' views go past SHARED_VIEW_BYTES.
 */
import type { PageText } from "../document/model.js";
import type { FoldedText } from "./fold.js";

const SHARED_VIEW_BYTES = 16 * 2 ** 20;

interface PageViews {
  views: Map<string, FoldedText | null>;
  bytes: number;
}

const pages = new Map<PageText, PageViews>();
let bytes = 0;

/** A view folded before in this process from this very page object; undefined when none was. */
export function sharedView(text: PageText, key: string): FoldedText | null | undefined {
  const hit = pages.get(text);
  if (!hit) return undefined;
  // Most recently used last.
  pages.delete(text);
  pages.set(text, hit);
  return hit.views.get(key);
}

/** Keeps a view of a page for later runs (read only: no view is changed once folded). */
export function shareView(text: PageText, key: string, view: FoldedText | null): void {
  const size = view ? 2 * view.text.length + view.startUtf16.byteLength + view.endUtf16.byteLength : 0;
  if (size > SHARED_VIEW_BYTES) return;
  let entry = pages.get(text);
  if (!entry) {
    entry = { views: new Map(), bytes: 0 };
    pages.set(text, entry);
  }
  if (entry.views.has(key)) return;
  entry.views.set(key, view);
  entry.bytes += size;
  bytes += size;
  for (const [page, v] of pages) {
    if (bytes <= SHARED_VIEW_BYTES) break;
    pages.delete(page);
    bytes -= v.bytes;
  }
}
