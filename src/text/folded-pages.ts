/**
 * Folded views of a document's pages, built lazily and once: per page both readings of line-end
 * hyphens, each over the whole text and over the body flow (lines set apart blanked, see
 * body-flow.ts), a skeleton (letters and digits only), and one concatenation per reading for
 * finding on which pages a quotation stands.
 */
import type { PageText } from "../document/model.js";
import { bodyFlowText } from "./body-flow.js";
import { type FoldedText, fold, type HyphenReading, skeleton } from "./fold.js";

export interface PageMatch {
  page: number;
  startUtf16: number;
  endUtf16: number;
  reading: HyphenReading;
}

const READINGS: HyphenReading[] = ["joined", "kept"];
/** The whole text, and the body flow (only where it differs). */
const FLOWS = ["all", "body"] as const;
type Flow = (typeof FLOWS)[number];
const PAGE_SEPARATOR = "\u0000";

export class FoldedPages {
  private readonly views = new Map<string, FoldedText | null>();
  private readonly joinedDocs = new Map<string, { text: string; pageStarts: number[] } | null>();

  constructor(readonly pages: readonly (PageText | undefined)[]) {}

  view(page: number, reading: HyphenReading): FoldedText | undefined {
    return this.flowView(page, reading, "all");
  }

  /** The folded body flow, or undefined when the page sets no line apart (it is the whole text). */
  bodyView(page: number, reading: HyphenReading): FoldedText | undefined {
    return this.flowView(page, reading, "body");
  }

  private flowView(page: number, reading: HyphenReading, flow: Flow): FoldedText | undefined {
    const key = `${page}:${reading}:${flow}`;
    let view = this.views.get(key);
    if (view === undefined) {
      const text = this.pages[page - 1];
      if (!text) return undefined;
      const source = flow === "all" ? text.text : bodyFlowText(text);
      view =
        source === undefined
          ? null
          : fold(source, { lineEndHyphensUtf16: text.lineEndHyphensUtf16, hyphenReading: reading });
      this.views.set(key, view);
    }
    return view ?? undefined;
  }

  skeletonView(page: number): FoldedText | undefined {
    const key = `${page}:skeleton`;
    let view = this.views.get(key);
    if (!view) {
      const text = this.pages[page - 1];
      if (!text) return undefined;
      view = skeleton(text.text);
      this.views.set(key, view);
    }
    return view;
  }

  /** Every occurrence of the folded needle on one page, in original offsets, both readings merged. */
  findOnPage(page: number, needle: string, limit = 8): PageMatch[] {
    const seen = new Set<string>();
    const matches: PageMatch[] = [];
    for (const [reading, flow] of READINGS.flatMap((r) => FLOWS.map((f) => [r, f] as const))) {
      const view = this.flowView(page, reading, flow);
      if (!view || needle.length === 0) continue;
      let at = view.text.indexOf(needle);
      while (at >= 0 && matches.length < limit) {
        if (!onWordBoundaries(view.text, at, needle)) {
          at = view.text.indexOf(needle, at + 1);
          continue;
        }
        const startUtf16 = view.startUtf16[at];
        const endUtf16 = view.endUtf16[at + needle.length - 1];
        const key = `${startUtf16}:${endUtf16}`;
        if (!seen.has(key)) {
          seen.add(key);
          matches.push({ page, startUtf16, endUtf16, reading });
        }
        at = view.text.indexOf(needle, at + 1);
      }
    }
    return matches.sort((a, b) => a.startUtf16 - b.startUtf16);
  }

  /** Pages whose folded text holds the needle, in page order. */
  pagesContaining(needle: string): number[] {
    const found = new Set<number>();
    if (needle.length === 0) return [];
    for (const [reading, flow] of READINGS.flatMap((r) => FLOWS.map((f) => [r, f] as const))) {
      const doc = this.joinedDoc(reading, flow);
      if (!doc) continue;
      let at = doc.text.indexOf(needle);
      while (at >= 0) {
        if (!onWordBoundaries(doc.text, at, needle)) {
          at = doc.text.indexOf(needle, at + 1);
          continue;
        }
        const page = pageAt(doc.pageStarts, at);
        found.add(page);
        // Continue from the next page: one hit per page is enough.
        const next = doc.pageStarts[page] ?? doc.text.length;
        at = doc.text.indexOf(needle, Math.max(at + 1, next));
      }
    }
    return [...found].sort((a, b) => a - b);
  }

  /** The pages' folded text end to end; undefined for the body flow when no page sets a line apart. */
  private joinedDoc(reading: HyphenReading, flow: Flow): { text: string; pageStarts: number[] } | undefined {
    const key = `${reading}:${flow}`;
    let doc = this.joinedDocs.get(key);
    if (doc === undefined) {
      const parts: string[] = [];
      const pageStarts: number[] = [];
      let offset = 0;
      let differs = false;
      for (let page = 1; page <= this.pages.length; page++) {
        pageStarts.push(offset);
        const body = flow === "body" ? this.bodyView(page, reading) : undefined;
        if (body) differs = true;
        const view = body ?? this.view(page, reading);
        const text = view ? view.text : "";
        parts.push(text, PAGE_SEPARATOR);
        offset += text.length + 1;
      }
      doc = flow === "all" || differs ? { text: parts.join(""), pageStarts } : null;
      this.joinedDocs.set(key, doc);
    }
    return doc ?? undefined;
  }
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * A match must not cut a word: where the needle begins (ends) with a letter or digit, the text
 * before (after) it must not be one. "58" is not found in "158", nor "ensemble" in "ensembles".
 */
export function onWordBoundaries(text: string, at: number, needle: string): boolean {
  const first = needle[0];
  const last = needle[needle.length - 1];
  if (at > 0 && WORD_CHAR.test(first) && WORD_CHAR.test(text[at - 1])) return false;
  const after = at + needle.length;
  if (after < text.length && WORD_CHAR.test(last) && WORD_CHAR.test(text[after])) return false;
  return true;
}

/** 1-based page holding offset `at`, by binary search over page start offsets. */
function pageAt(pageStarts: number[], at: number): number {
  let lo = 0;
  let hi = pageStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pageStarts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}
