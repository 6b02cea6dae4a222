/**
 * Where a line of a page stands: in the body, a caption, a footnote, a running head or foot (page
 * numbers included), the references list, a table, or the margin. Decided from the layout of the
 * text layer alone (font size, position, repetition on nearby pages, a references heading), from
 * the line's page and the pages near it, lazily; a match's region never changes its verdict, only
 * what its message says.
 */
import type { LineInfo, PageText } from "../document/model.js";
import { asPageSource, type PageSource } from "../document/page-source.js";
import { dominantSize } from "./body-flow.js";
import { type DerivedRecords, recordName } from "./derived-records.js";

export const REGIONS = [
  "body",
  "caption",
  "footnote",
  "running-head",
  "references",
  "table",
  "margin",
] as const;
export type Region = (typeof REGIONS)[number];

export const REGION_MEANINGS: Record<Region, string> = {
  body: "the running text",
  caption: "a figure or table caption (a line that begins with its label, and the lines that continue it)",
  footnote: "a footnote: smaller print below the running text of its column",
  "running-head":
    "a running head or foot, or a page number: a line at the page's top or bottom edge that recurs on the pages near it",
  references:
    "the references list: from a References or Bibliography heading followed by entries, over the pages that read as a list, to the next heading or an appendix",
  table: "a table: consecutive lines made mostly of figures",
  margin: "the margin: a line beside the text block (a margin note, a sideways stamp)",
};

/** Regions that make a quotation's only match worth a word in its message. */
export const NOTED_REGIONS: ReadonlySet<Region> = new Set(["references", "caption", "running-head"]);

/**
 * The noted regions every match stands in, in the order of REGIONS, when all of them are noted
 * ones; undefined when some match stands elsewhere (or there is none).
 */
export function onlyNotedRegions(regions: readonly Region[]): Region[] | undefined {
  if (regions.length === 0 || !regions.every((r) => NOTED_REGIONS.has(r))) return undefined;
  return REGIONS.filter((r) => regions.includes(r));
}

/** How each noted region is named in a message ("found only in the references list"). */
export const REGION_PHRASES: Record<Region, string> = {
  body: "the running text",
  caption: "a caption",
  footnote: "a footnote",
  "running-head": "a running head or foot",
  references: "the references list",
  table: "a table",
  margin: "the margin",
};

const REFERENCES_HEADING =
  /^(?:(?:\d+|[IVXLC]+|[A-Z])\.?\s+)?(?:references?(?: list| cited)?|bibliography|literature cited|works cited|bibliographie|références|literatur(?:verzeichnis)?|referencias|bibliografía)\s*$/iu;
const APPENDIX_HEADING = /^(?:appendix|appendices|supplementary|supporting information|annexe?)\b/iu;
const CAPTION_START =
  /^(?:fig(?:ure)?s?|table|tab|tableau|scheme|chart|plate|exhibit)\.?\s*(?:[A-Z]\.?)?\d+(?:[.-]\d+)*[a-z]?(?:\s*[.:|]|\s+\p{Lu}|\s*$)/iu;
const PAGE_NUMBER = /^(?:(?:page|p\.)\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|\/)\s*\d{1,4})?$/iu;
/** A line that carries a year or opens with an entry number, as the entries of a references list do. */
const REFERENCE_ENTRY = /\b(?:1[6-9]|20)\d\d[a-z]?\b|^\[\d{1,4}\]|^\d{1,4}\.\s/u;
/** A page reads as a references list when at least this share of its lines look like entries. */
const ENTRY_SHARE = 0.2;
/** How many lines after a references heading are read to tell whether a list follows it. */
const HEADING_LOOKAHEAD = 16;
const NUMERIC_TOKEN = /^[([]?[-+−–±]?[\d.,]+%?[)\]]?[*†‡]*$|^[-–—±]$/u;

/** The longest line, in UTF-16 units of the page text, that is read as a references heading. */
const MAX_HEADING_UTF16 = 200;
/** The share of the page's height at its top and bottom where running heads and feet stand. */
const EDGE_BAND = 0.12;
const SMALLER = 0.85;
/** Pages each side of a line's page whose edge bands tell whether the line is a running head. */
export const RUNNING_HEAD_WINDOW = 6;

/** What a page says about its own lines, without looking at any other page. */
interface LocalRegions {
  /** The region of each line from the page alone (never running-head or references). */
  regions: Region[];
  /** Per line: its identity as a running head, when it stands in the page's edge band. */
  edgeKeys: (string | undefined)[];
  /** Per line: a page number in the edge band. */
  pageNumbers: boolean[];
  /** The page holds a references heading, or reads as a references list (entries with years or numbers). */
  mayHoldReferences: boolean;
  bodySize: number;
}

/**
 * Most rules read the page alone. Two look at other pages, and only at pages near the line, so that
 * a check reading a few pages decides as one reading the whole document: a line in the edge band is
 * a running head when its words recur at the same place on pages within RUNNING_HEAD_WINDOW of its
 * own, and a line of a page that holds a references heading or reads as a list of entries lies in
 * the references list when, walking back from it through such pages, a references heading comes
 * before any heading that ends a list.
 */
export class DocumentRegions {
  private readonly local = new Map<number, LocalRegions>();
  /** Pages' own regions read back from a record (by page): undefined before looking, null when none. */
  private storedPages: Map<number, StoredPage> | null | undefined;
  /** Whether a page was classified here rather than read back. */
  private classified = false;
  private readonly edgeKeys = new Map<number, (string | undefined)[]>();
  /** Per page: the keys of its edge-band lines that recur on the pages near it. */
  private readonly recurring = new Map<number, Set<string>>();

  /** `records` keeps the pages' own regions between runs. */
  private readonly pages: PageSource;

  constructor(
    pages: PageSource | readonly (PageText | undefined)[],
    private readonly records?: DerivedRecords,
  ) {
    this.pages = asPageSource(pages);
  }

  /** Forgets which edge-band lines recur nearby (after pages not held were read as absent). */
  forgetNeighbourhoods(): void {
    this.recurring.clear();
  }

  /** The region of the line holding the UTF-16 offset `at` of a page's text. */
  regionAt(page: number, at: number): Region {
    const text = this.pages.get(page);
    if (!text || text.lines.length === 0) return "body";
    const lines = text.lines;
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lines[mid].startUtf16 <= at) lo = mid;
      else hi = mid - 1;
    }
    return this.lineRegion(text, lo);
  }

  /** The region of every line of a page, in the order of PageText.lines. */
  pageRegions(page: number): Region[] {
    const text = this.pages.get(page);
    if (!text) return [];
    return text.lines.map((_, i) => this.lineRegion(text, i));
  }

  private lineRegion(text: PageText, i: number): Region {
    const local = this.localOf(text);
    const key = local.edgeKeys[i];
    if (key !== undefined && (local.pageNumbers[i] || this.recursNearby(text.page, key)))
      return "running-head";
    const region = local.regions[i];
    if (region !== "caption" && local.mayHoldReferences && this.inReferencesList(text, i))
      return "references";
    return region;
  }

  private localOf(text: PageText): LocalRegions {
    let local = this.local.get(text.page);
    if (!local) {
      local = this.storedPage(text);
      if (!local) {
        local = classifyPage(text);
        this.classified = true;
      }
      this.local.set(text.page, local);
    }
    return local;
  }

  /** A page's own regions as a run before this one classified them, when they fit its lines. */
  private storedPage(text: PageText): LocalRegions | undefined {
    if (this.storedPages === undefined) {
      const name = this.pagesRecordName();
      this.storedPages = (name && storedPagesOf(this.records?.read(name))) || null;
    }
    const stored = this.storedPages?.get(text.page);
    return stored ? localFromStored(stored, text.lines.length) : undefined;
  }

  private pagesRecordName(): string | undefined {
    return this.records ? recordName("regions-pages") : undefined;
  }

  /**
   * Keeps every page's own regions classified so far (with those read back) for the next run, when
   * this one classified a page: what a page says about its lines depends on that page alone.
   */
  keepPages(): void {
    const name = this.pagesRecordName();
    if (!name || !this.classified) return;
    const pages = new Map(this.storedPages ?? []);
    for (const [page, local] of this.local) pages.set(page, toStoredPage(local));
    this.records?.write(name, { pages: [...pages.keys()], entries: [...pages.values()] });
    this.classified = false;
  }

  /**
   * A page's edge-band keys for comparing running heads: from its classification when it has one,
   * else from the edge band alone (classifying the pages around a line only to compare their
   * running heads would cost more than the check that asked).
   */
  private edgeKeysOf(text: PageText): (string | undefined)[] {
    const local = this.local.get(text.page);
    if (local) return local.edgeKeys;
    let keys = this.edgeKeys.get(text.page);
    if (!keys) {
      keys = text.lines.map((line) =>
        edgeOf(text, line) === undefined ? undefined : edgeKey(text, line, lineText(text, line)),
      );
      this.edgeKeys.set(text.page, keys);
    }
    return keys;
  }

  /**
   * Whether an edge-band key of the page recurs on the pages within RUNNING_HEAD_WINDOW of it (the
   * page itself counted): on three pages, or on two when those pages hold four pages with a text
   * layer or fewer. Heads set on alternate pages (a book's title on the left, its chapter's on the
   * right) recur within the window as heads on every page do.
   */
  private recursNearby(page: number, key: string): boolean {
    let recurring = this.recurring.get(page);
    if (!recurring) {
      recurring = new Set();
      const text = this.pages.get(page);
      const own = new Set(text ? this.edgeKeysOf(text) : []);
      own.delete(undefined);
      const counts = new Map<string, number>();
      let textPages = 0;
      const last = Math.min(this.pages.count, page + RUNNING_HEAD_WINDOW);
      for (let p = Math.max(1, page - RUNNING_HEAD_WINDOW); p <= last; p++) {
        const other = this.pages.get(p);
        if (!other) continue;
        if (other.hasTextLayer) textPages++;
        for (const k of new Set(this.edgeKeysOf(other)))
          if (k !== undefined && own.has(k)) counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      const needed = textPages <= 4 ? 2 : 3;
      for (const [k, n] of counts) if (n >= needed) recurring.add(k);
      this.recurring.set(page, recurring);
    }
    return recurring.has(key);
  }

  /**
   * Whether line `line` of a page lies in a references list: walking back from it, line by line and
   * over the pages before it while they too hold a references heading or read as a list, a
   * references heading comes first (a running head that says "References" is not one), before any
   * heading that ends a list (set larger than its page's running text, an appendix's, or a caption:
   * tables and figures placed after the list are not part of it).
   */
  private inReferencesList(text: PageText, line: number): boolean {
    let page = text;
    let from = line;
    for (;;) {
      const local = this.localOf(page);
      const lines = page.lines;
      for (let i = from; i >= 0; i--) {
        const key = local.edgeKeys[i];
        const words = lineText(page, lines[i]);
        // A heading is a few words: a long line is not one, whatever its spacing.
        if (
          lines[i].endUtf16 - lines[i].startUtf16 <= MAX_HEADING_UTF16 &&
          REFERENCES_HEADING.test(words) &&
          (key === undefined || !this.recursNearby(page.page, key)) &&
          this.entriesFollow(page, i)
        )
          // The heading itself is not in the list it opens.
          return page !== text || i !== line;
        if (key === undefined && endsList(words, lines[i], local.bodySize)) return false;
      }
      let previous: PageText | undefined;
      for (let p = page.page - 1; p >= 1 && !previous; p--) previous = this.pages.get(p);
      if (!previous || !this.localOf(previous).mayHoldReferences) return false;
      page = previous;
      from = previous.lines.length - 1;
    }
  }

  /**
   * Whether a list's entries follow a references heading: one at least of the next
   * HEADING_LOOKAHEAD lines outside the edge band (on the pages after it when its page ends) carries
   * a year or opens with an entry number. A table's row label "Reference" is followed by figures.
   */
  private entriesFollow(text: PageText, heading: number): boolean {
    let seen = 0;
    let page: PageText | undefined = text;
    let from = heading + 1;
    while (page && seen < HEADING_LOOKAHEAD) {
      const local = this.localOf(page);
      for (let i = from; i < page.lines.length && seen < HEADING_LOOKAHEAD; i++) {
        if (local.edgeKeys[i] !== undefined) continue;
        const words = lineText(page, page.lines[i]);
        if (words.length === 0) continue;
        seen++;
        if (REFERENCE_ENTRY.test(words)) return true;
      }
      if (page.page >= this.pages.count) break;
      page = this.pages.get(page.page + 1);
      from = 0;
    }
    return false;
  }
}

/** A heading that ends a references list: set larger than the page's running text, an appendix's, or a caption. */
function endsList(words: string, line: LineInfo, bodySize: number): boolean {
  if (words.length === 0 || words.length >= 80) return false;
  return (
    line.fontSize > bodySize * 1.15 ||
    (APPENDIX_HEADING.test(words) && line.fontSize >= bodySize * 0.95) ||
    CAPTION_START.test(words)
  );
}

/** A page's LocalRegions as kept between runs: region indexes, edge keys ("" for none), page numbers. */
interface StoredPage {
  regions: Uint8Array;
  edgeKeys: string[];
  pageNumbers: Uint8Array;
  mayHoldReferences: boolean;
  bodySize: number;
}

function toStoredPage(local: LocalRegions): StoredPage {
  return {
    regions: Uint8Array.from(local.regions, (r) => REGIONS.indexOf(r)),
    edgeKeys: local.edgeKeys.map((k) => k ?? ""),
    pageNumbers: Uint8Array.from(local.pageNumbers, (n) => (n ? 1 : 0)),
    mayHoldReferences: local.mayHoldReferences,
    bodySize: local.bodySize,
  };
}

/** The stored pages by page number; undefined when the record is not of that shape. */
function storedPagesOf(value: unknown): Map<number, StoredPage> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { pages, entries } = value as { pages?: unknown; entries?: unknown };
  if (!Array.isArray(pages) || !Array.isArray(entries) || pages.length !== entries.length) return undefined;
  const out = new Map<number, StoredPage>();
  for (let i = 0; i < pages.length; i++) {
    if (!Number.isSafeInteger(pages[i]) || typeof entries[i] !== "object" || entries[i] === null)
      return undefined;
    out.set(pages[i], entries[i] as StoredPage);
  }
  return out;
}

/** Regions a page may give its lines by itself (never running-head or references). */
const LOCAL_REGIONS = new Set<Region>(["body", "caption", "footnote", "table", "margin"]);

/** A stored page read back, every field checked against the page's lines; undefined when any is wrong. */
function localFromStored(stored: StoredPage, lineCount: number): LocalRegions | undefined {
  const { regions, edgeKeys, pageNumbers, mayHoldReferences, bodySize } = stored;
  if (!(regions instanceof Uint8Array) || !(pageNumbers instanceof Uint8Array) || !Array.isArray(edgeKeys))
    return undefined;
  if (regions.length !== lineCount || pageNumbers.length !== lineCount || edgeKeys.length !== lineCount)
    return undefined;
  if (typeof mayHoldReferences !== "boolean" || typeof bodySize !== "number" || !(bodySize >= 0))
    return undefined;
  const local: LocalRegions = { regions: [], edgeKeys: [], pageNumbers: [], mayHoldReferences, bodySize };
  for (let i = 0; i < lineCount; i++) {
    const region = REGIONS[regions[i]];
    const key = edgeKeys[i];
    if (region === undefined || !LOCAL_REGIONS.has(region) || typeof key !== "string" || pageNumbers[i] > 1)
      return undefined;
    local.regions.push(region);
    local.edgeKeys.push(key === "" ? undefined : key);
    local.pageNumbers.push(pageNumbers[i] === 1);
  }
  return local;
}

/** The regions a page gives its lines by itself: captions, the margin, footnotes, tables, the body. */
function classifyPage(text: PageText): LocalRegions {
  const lines = text.lines;
  const lineWords = lines.map((line) => lineText(text, line));
  const bodySize = dominantSize(lines);
  const regions: Region[] = new Array(lines.length).fill("body");
  const edgeKeys: (string | undefined)[] = new Array(lines.length).fill(undefined);
  const pageNumbers: boolean[] = new Array(lines.length).fill(false);
  const isBody = (l: LineInfo) =>
    bodySize > 0 && l.fontSize >= bodySize * SMALLER && l.fontSize <= bodySize * 1.25;
  let blockLeft = Number.POSITIVE_INFINITY;
  let blockRight = Number.NEGATIVE_INFINITY;
  let bodyLines = 0;
  let entries = 0;
  let counted = 0;
  let heading = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const words = lineWords[i];
    if (REFERENCES_HEADING.test(words)) heading = true;
    if (edgeOf(text, line) !== undefined) {
      edgeKeys[i] = edgeKey(text, line, words);
      pageNumbers[i] = PAGE_NUMBER.test(words);
      continue;
    }
    counted++;
    if (REFERENCE_ENTRY.test(words)) entries++;
    // The text block is where upright running text stands: a sideways stamp beside it is not in it.
    const upright = line.box.right - line.box.left > line.box.top - line.box.bottom;
    if (!isBody(line) || !upright) continue;
    bodyLines++;
    blockLeft = Math.min(blockLeft, line.box.left);
    blockRight = Math.max(blockRight, line.box.right);
  }
  let caption: LineInfo | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const words = lineWords[i];
    if (CAPTION_START.test(words)) {
      regions[i] = "caption";
      caption = line;
      continue;
    }
    if (caption && continuesCaption(caption, lines[i - 1], line)) {
      regions[i] = "caption";
      continue;
    }
    caption = undefined;
    if (bodyLines >= 3 && (line.box.right < blockLeft - 2 || line.box.left > blockRight + 2)) {
      regions[i] = "margin";
      continue;
    }
    if (
      bodySize > 0 &&
      line.fontSize > 0 &&
      line.fontSize < bodySize * SMALLER &&
      belowItsColumn(lines, line, (l) => isBody(l) && edgeOf(text, l) === undefined, text)
    )
      regions[i] = "footnote";
  }
  markTables(lineWords, regions);
  return {
    regions,
    edgeKeys,
    pageNumbers,
    mayHoldReferences: heading || (counted > 0 && entries >= counted * ENTRY_SHARE),
    bodySize,
  };
}

/** The line's words, whitespace runs as one space, trimmed. */
function lineText(text: PageText, line: LineInfo): string {
  const slice = text.text.slice(line.startUtf16, line.endUtf16);
  return spacedOnce(slice) ? slice : slice.replace(/\s+/gu, " ").trim();
}

const SPACE = /\s/u;

/** No whitespace in the text but single spaces between other characters: nothing to normalise. */
function spacedOnce(text: string): boolean {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      if (i === 0 || i === n - 1 || text.charCodeAt(i + 1) === 32) return false;
    } else if ((c >= 9 && c <= 13) || (c >= 0x80 && SPACE.test(text[i]))) return false;
  }
  return true;
}

/** "top" or "bottom" when the line stands in the page's edge band (pages shown upright only). */
function edgeOf(text: PageText, line: LineInfo): "top" | "bottom" | undefined {
  if (text.rotation !== 0) return undefined;
  const band = (text.cropBox.top - text.cropBox.bottom) * EDGE_BAND;
  if (line.box.bottom >= text.cropBox.top - band) return "top";
  if (line.box.top <= text.cropBox.bottom + band) return "bottom";
  return undefined;
}

/** A running head's identity across pages: its edge, rough height, and words with digits blurred. */
function edgeKey(text: PageText, line: LineInfo, words: string): string {
  const edge = edgeOf(text, line);
  const y = edge === "top" ? text.cropBox.top - line.box.top : line.box.bottom - text.cropBox.bottom;
  return `${edge}:${Math.round(y / 6)}:${words.toLowerCase().replace(/\d+/gu, "#")}`;
}

/** A line that continues the caption above it: the same size, set close below it, the caption not yet ended. */
function continuesCaption(caption: LineInfo, previous: LineInfo, line: LineInfo): boolean {
  if (Math.abs(line.fontSize - caption.fontSize) > 0.3) return false;
  const height = Math.max(1, previous.box.top - previous.box.bottom);
  const gap = previous.box.bottom - line.box.top;
  if (gap < -height || gap > height * 0.9) return false;
  // A short line ended the caption's paragraph.
  return previous.box.right >= caption.box.right - Math.max(24, height * 3) || previous === caption;
}

/** No line of body size stands below it in its column (it overlaps them horizontally). */
function belowItsColumn(
  lines: LineInfo[],
  line: LineInfo,
  isBody: (l: LineInfo) => boolean,
  text: PageText,
): boolean {
  const middle = (text.cropBox.top + text.cropBox.bottom) / 2;
  if (line.box.top > middle) return false;
  let bodyAbove = false;
  for (const other of lines) {
    if (!isBody(other) || other.box.right <= line.box.left || other.box.left >= line.box.right) continue;
    if (other.box.top < line.box.bottom) return false;
    if (other.box.bottom > line.box.top) bodyAbove = true;
  }
  return bodyAbove;
}

/** Three space-separated tokens or more, at least half of them figures. */
function mostlyFigures(words: string): boolean {
  const tokens = words.split(" ");
  if (tokens.length < 3) return false;
  let figures = 0;
  for (const t of tokens) if (mayOpenFigure(t.charCodeAt(0)) && NUMERIC_TOKEN.test(t)) figures++;
  return figures * 2 >= tokens.length;
}

/** A character NUMERIC_TOKEN's match can begin with (a cheap test before the pattern's). */
function mayOpenFigure(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    c === 0x28 || // (
    c === 0x5b || // [
    c === 0x2d || // -
    c === 0x2b || // +
    c === 0x2e || // .
    c === 0x2c || // ,
    c === 0xb1 || // ±
    c === 0x2212 || // −
    c === 0x2013 || // –
    c === 0x2014 // —
  );
}

/** Runs of two or more body lines made mostly of figures, three tokens or more each, are a table. */
function markTables(lineWords: readonly string[], regions: Region[]): void {
  const numeric = lineWords.map((words, i) => regions[i] === "body" && mostlyFigures(words));
  for (let i = 0; i < numeric.length; ) {
    if (!numeric[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < numeric.length && numeric[j]) j++;
    if (j - i >= 2) for (let k = i; k < j; k++) regions[k] = "table";
    i = j;
  }
}
