/**
 * Folded views of a document's pages, built lazily and once: per page both readings of line-end
 * hyphens (one view when the page has none), each over the whole text and over the body flow
 * (lines set apart blanked, see body-flow.ts), a skeleton (letters and digits only), and a token
 * index for finding on which pages a quotation stands without folding every page.
 */
import type { PageText } from "../document/model.js";
import { asPageSource, type PageSource } from "../document/page-source.js";
import { bodyFlowText } from "./body-flow.js";
import type { DerivedRecords } from "./derived-records.js";
import type { EveryPageReadable } from "./every-page.js";
import {
  type FoldedText,
  type FoldOptions,
  fold,
  foldedText,
  type HyphenReading,
  skeletonOf,
} from "./fold.js";
import { DocumentRegions } from "./page-regions.js";
import { PrintedLabels } from "./printed-labels.js";
import { sharedView, shareView } from "./shared-views.js";
import { type SerializedTokenIndex, TOKEN_INDEX_VERSION, TokenIndex } from "./token-index.js";

export interface PageMatch {
  page: number;
  startUtf16: number;
  endUtf16: number;
  reading: HyphenReading;
}

const READINGS: HyphenReading[] = ["joined", "kept"];
/**
 * The whole text; the body flow (only where it differs); and the whole text read with a word
 * boundary where a raised mark is glued to a word (only where the page has such marks).
 */
const FLOWS = ["all", "body", "marks"] as const;
type Flow = (typeof FLOWS)[number];

export interface FoldedPagesOptions {
  /** A token index read from a cache; built on first need otherwise. */
  tokenIndex?: SerializedTokenIndex;
  /** Called once when the index had to be built, so a caller can store it. */
  onTokenIndexBuilt?: (index: SerializedTokenIndex) => void;
  /** Where the document-wide decisions (regions, printed labels) are kept between runs. */
  records?: DerivedRecords;
  /**
   * Whether a page's folded views are kept for the run (default: every page's). The views of other
   * pages (pages read back from the cache one at a time) are kept only for the last few pages folded.
   */
  keepViews?: (page: number) => boolean;
  /**
   * Whether every page can be read now (default: yes), and who is told when a search over every page
   * (the token index, the printed labels of every page) is asked for before: a caller that holds only
   * the pages read so far says no until the rest is in, and the search finds nothing meanwhile.
   */
  everyPage?: EveryPageReadable;
}

/** How many pages' views are kept when a page's views are not kept for the run. */
const RECENT_PAGES = 16;

export class FoldedPages {
  private readonly views = new Map<string, FoldedText | null>();
  /** The views of the last pages folded whose views are not kept (options.keepViews), by page. */
  private readonly recentViews = new Map<number, Map<string, FoldedText | null>>();
  private tokenIndex: TokenIndex | undefined;
  private documentRegions: DocumentRegions | undefined;
  private printedLabels: PrintedLabels | undefined;

  /** Where each line of each page stands (body, caption, footnote, ...), decided on first need. */
  get regions(): DocumentRegions {
    this.documentRegions ??= new DocumentRegions(this.pages, this.options.records);
    return this.documentRegions;
  }

  /** Keeps for the next run what this one decided page by page (the pages' own regions). */
  keepRecords(): void {
    this.documentRegions?.keepPages();
  }

  /** The label printed on each page, decided on first need. */
  get labels(): PrintedLabels {
    this.printedLabels ??= new PrintedLabels(this.pages, this.options.records, this.options.everyPage);
    return this.printedLabels;
  }

  /** The pages, by number (a page not read is undefined). */
  readonly pages: PageSource;

  constructor(
    pages: PageSource | readonly (PageText | undefined)[],
    private readonly options: FoldedPagesOptions = {},
  ) {
    this.pages = asPageSource(pages);
    const cached = options.tokenIndex;
    if (cached && cached.version === TOKEN_INDEX_VERSION && cached.pageCount === this.pages.count) {
      this.tokenIndex = new TokenIndex(cached);
    }
  }

  /**
   * Forgets what was decided from a page's neighbours (running heads, printed labels) after a check
   * read pages not held: those decisions took an absent page for one without text.
   */
  forgetNeighbourhoods(): void {
    this.documentRegions?.forgetNeighbourhoods();
    this.printedLabels?.forgetNeighbourhoods();
  }

  /** Lets go of the views kept for the run (they are folded again when reached; keepViews still applies). */
  releaseViews(): void {
    this.views.clear();
  }

  /** A view folded before: in this run, else in an earlier run of this process (shared-views.ts). */
  private recall(page: number, key: string): FoldedText | null | undefined {
    const recent = this.recentViews.get(page);
    const view = recent ? recent.get(key) : this.views.get(key);
    if (view !== undefined) return view;
    const text = this.pages.get(page);
    return text && sharedView(text, viewOf(key));
  }

  /**
   * Keeps a view: for good (and for later runs of this process), or among the last few pages' when the
   * page's views are not kept (a long document's: memory holds the index, not every page's views).
   */
  private remember(page: number, key: string, view: FoldedText | null): void {
    const keepViews = this.options.keepViews;
    if (!keepViews || keepViews(page)) {
      this.views.set(key, view);
      const text = this.pages.get(page);
      if (text) shareView(text, viewOf(key), view);
      return;
    }
    let recent = this.recentViews.get(page);
    if (recent) this.recentViews.delete(page);
    else {
      recent = new Map();
      if (this.recentViews.size >= RECENT_PAGES)
        this.recentViews.delete(this.recentViews.keys().next().value as number);
    }
    this.recentViews.set(page, recent);
    recent.set(key, view);
  }

  view(page: number, reading: HyphenReading): FoldedText | undefined {
    return this.flowView(page, reading, "all");
  }

  /** The folded body flow, or undefined when the page sets no line apart (it is the whole text). */
  bodyView(page: number, reading: HyphenReading): FoldedText | undefined {
    return this.flowView(page, reading, "body");
  }

  /** A folded view; kept for later calls unless `keep` is false (the index reads every page once). */
  private flowView(page: number, reading: HyphenReading, flow: Flow, keep = true): FoldedText | undefined {
    const text = this.pages.get(page);
    if (!text) return undefined;
    // Without line-end hyphens both readings are the same text: fold it once.
    const effective = text.lineEndHyphensUtf16.length === 0 ? "joined" : reading;
    const key = `${page}:${effective}:${flow}`;
    let view = this.recall(page, key);
    if (view === undefined) {
      view = foldFlow(text, effective, flow);
      if (keep) this.remember(page, key, view);
    }
    return view ?? undefined;
  }

  /**
   * The distinct folded views of a page a quotation is matched against, in the order they are
   * tried; folded only when reached.
   */
  private *pageViews(page: number, keep = true): Generator<{ view: FoldedText; reading: HyphenReading }> {
    const text = this.pages.get(page);
    if (!text) return;
    const readings: HyphenReading[] = text.lineEndHyphensUtf16.length === 0 ? ["joined"] : READINGS;
    for (const flow of FLOWS) {
      for (const reading of readings) {
        const view = this.flowView(page, reading, flow, keep);
        if (view) yield { view, reading };
      }
    }
  }

  /** The page's text folded with no reading of line-end hyphens (what the closest line is cut from). */
  plainView(page: number): FoldedText | undefined {
    const text = this.pages.get(page);
    if (!text) return undefined;
    // Without line-end hyphens the whole-text view is exactly this: reuse it.
    if (text.lineEndHyphensUtf16.length === 0) return this.view(page, "joined");
    const key = `${page}:plain`;
    let view = this.recall(page, key);
    if (!view) {
      view = fold(text.text);
      this.remember(page, key, view);
    }
    return view;
  }

  skeletonView(page: number): FoldedText | undefined {
    const key = `${page}:skeleton`;
    let view = this.recall(page, key);
    if (!view) {
      const plain = this.plainView(page);
      if (!plain) return undefined;
      view = skeletonOf(plain);
      this.remember(page, key, view);
    }
    return view;
  }

  /**
   * The occurrences of the folded needle on one page, in original offsets. Views are tried in order
   * (joined reading of the whole text first) and the first view that holds the needle answers:
   * the other views differ only at line-end hyphens and lines set apart, and folding them costs time.
   */
  findOnPage(page: number, needle: string, limit = 8): PageMatch[] {
    if (needle.length === 0) return [];
    // A page the index rules out is not folded at all.
    if (this.tokenIndex && !this.tokenIndex.has(page, needle)) return [];
    const seen = new Set<string>();
    const matches: PageMatch[] = [];
    for (const { view, reading } of this.pageViews(page)) {
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
      if (matches.length > 0) return matches.sort((a, b) => a.startUtf16 - b.startUtf16);
    }
    return matches;
  }

  /** Pages whose folded text holds the needle, in page order. */
  pagesContaining(needle: string): number[] {
    if (needle.length === 0) return [];
    const index = this.index();
    if (!index) return [];
    const candidates = index.candidates(needle) ?? range(this.pages.count);
    return candidates.filter((page) => this.findOnPage(page, needle, 1).length > 0);
  }

  /** Pages the token index does not rule out for the needle (every page when it cannot tell), in page order. */
  candidatePages(needle: string): number[] {
    if (needle.length === 0) return [];
    const index = this.index();
    if (!index) return [];
    return index.candidates(needle) ?? range(this.pages.count);
  }

  /** Whether the token index is at hand (read from the cache, built or given). */
  get hasIndex(): boolean {
    return this.tokenIndex !== undefined;
  }

  /** The folded texts the token index holds for a page (the views already folded are reused). */
  indexTexts(page: number): string[] {
    return Array.from(this.pageViews(page, false), (v) => v.view.text);
  }

  /** Takes a token index built elsewhere over these pages (as they arrived), unless one is at hand. */
  adoptIndex(index: TokenIndex): void {
    if (this.tokenIndex || index.serialized.pageCount !== this.pages.count) return;
    this.tokenIndex = index;
    this.options.onTokenIndexBuilt?.(index.serialized);
  }

  /**
   * Whether every page can be read now, for a decision over the whole document (a PDF's outline); when
   * not, `everyPage` is told, and what is decided meanwhile is let go by the caller.
   */
  everyPageReadable(): boolean {
    const everyPage = this.options.everyPage;
    if (!everyPage || everyPage.readable()) return true;
    everyPage.wanted();
    return false;
  }

  /** The token index; undefined (and `everyPage` told) while only some pages can be read. */
  private index(): TokenIndex | undefined {
    if (!this.tokenIndex) {
      // Built over part of the document it would be thrown away at the first page not in.
      const everyPage = this.options.everyPage;
      if (everyPage && !everyPage.readable()) {
        everyPage.wanted();
        return undefined;
      }
      // Every page is folded for the index and its views let go: the few candidate pages of a
      // quotation are folded again when searched, so memory holds the index, not every page's views.
      this.tokenIndex = TokenIndex.build(this.pages.count, (page) => this.indexTexts(page));
      this.options.onTokenIndexBuilt?.(this.tokenIndex.serialized);
    }
    return this.tokenIndex;
  }
}

/** One view of a page folded: its whole text, body flow or marks reading; null when the page has no such view. */
function foldFlow(text: PageText, reading: HyphenReading, flow: Flow): FoldedText | null {
  const source = flowSource(text, flow);
  return source === undefined ? null : fold(source, foldOptions(text, reading, flow));
}

/** The text a view of a page folds; undefined when the page has no such view. */
function flowSource(text: PageText, flow: Flow): string | undefined {
  return flow === "body" ? bodyFlowText(text) : flow === "marks" && !hasBreaks(text) ? undefined : text.text;
}

function foldOptions(text: PageText, reading: HyphenReading, flow: Flow): FoldOptions {
  return {
    lineEndHyphensUtf16: text.lineEndHyphensUtf16,
    hyphenReading: reading,
    breaksUtf16: flow === "marks" ? text.scriptBreaksUtf16 : undefined,
  };
}

/**
 * The folded texts the token index holds for a page, in the order a match tries them: what
 * FoldedPages folds for the index, for a page not held by one (a page just extracted).
 */
export function indexTextsOf(text: PageText): string[] {
  const readings: HyphenReading[] = text.lineEndHyphensUtf16.length === 0 ? ["joined"] : READINGS;
  const texts: string[] = [];
  for (const flow of FLOWS) {
    const source = flowSource(text, flow);
    if (source === undefined) continue;
    for (const reading of readings) texts.push(foldedText(source, foldOptions(text, reading, flow)));
  }
  return texts;
}

function hasBreaks(text: PageText): boolean {
  return (text.scriptBreaksUtf16?.length ?? 0) > 0;
}

/** A view's key without its page (`<page>:<view>`): what names it for the page's text object. */
function viewOf(key: string): string {
  return key.slice(key.indexOf(":") + 1);
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
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
  // Nor a number: "3" is not found in "3.5", "1,000" or "3-4", nor "5" in "3.5" or in "-5".
  if (cutsNumberAfter(text, after, needle) || cutsNumberBefore(text, at, needle)) return false;
  return true;
}

const DIGIT = /\p{Nd}/u;
/** What goes on with a number: a decimal point, a thousands separator, a range's dash. */
const NUMBER_MARK = new Set([".", ",", "-", "\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212"]);
const SIGN = new Set(["-", "\u2212", "+"]);

/**
 * The needle ends in a number the text goes on with: a digit, then a decimal point, a thousands
 * separator or a range's dash, and a digit ("3" of "3.5", "1" of "1,000", "5" of "5-8%").
 */
function cutsNumberAfter(text: string, after: number, needle: string): boolean {
  if (after >= text.length) return false;
  const last = needle[needle.length - 1];
  if (DIGIT.test(last)) return NUMBER_MARK.has(text[after]) && DIGIT.test(text[after + 1] ?? "");
  // The needle's own "." or "," after a digit, where the text goes on with a digit.
  return (
    NUMBER_MARK.has(last) &&
    needle.length > 1 &&
    DIGIT.test(needle[needle.length - 2]) &&
    DIGIT.test(text[after])
  );
}

/**
 * The needle starts inside a number the text began before it ("5" of "3.5", "8%" of "5-8%"), or
 * after the number's sign ("3 degrees" of "-3 degrees").
 */
function cutsNumberBefore(text: string, at: number, needle: string): boolean {
  if (at < 1 || !DIGIT.test(needle[0])) return false;
  const mark = text[at - 1];
  if (NUMBER_MARK.has(mark) && at >= 2 && DIGIT.test(text[at - 2])) return true;
  return SIGN.has(mark) && (at < 2 || !WORD_CHAR.test(text[at - 2]));
}
