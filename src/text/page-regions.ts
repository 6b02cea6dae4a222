/**
 * Where a line of a page stands: in the body, a caption, a footnote, a running head or foot (page
 * numbers included), the references list, a table, or the margin. Decided from the layout of the
 * text layer alone (font size, position, repetition across pages, a references heading), lazily and
 * once per document; a match's region never changes its verdict, only what its message says.
 */
import type { LineInfo, PageText } from "../document/model.js";

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
    "a running head or foot, or a page number: a line at the page's top or bottom edge that repeats across pages",
  references: "the references list: from a References or Bibliography heading to the end or to an appendix",
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
const NUMERIC_TOKEN = /^[([]?[-+−–±]?[\d.,]+%?[)\]]?[*†‡]*$|^[-–—±]$/u;

/** The share of the page's height at its top and bottom where running heads and feet stand. */
const EDGE_BAND = 0.12;
const SMALLER = 0.85;

interface LinePlace {
  page: number;
  line: number;
}

interface ReferencesList {
  /** The heading; the list is what follows it. */
  start: LinePlace;
  /** The heading that ends the list, if one does. */
  end?: LinePlace;
}

/** Whether line `line` of page `page` comes after `place`. */
function after(page: number, line: number, place: LinePlace): boolean {
  return page > place.page || (page === place.page && line > place.line);
}

function before(page: number, line: number, place: LinePlace): boolean {
  return page < place.page || (page === place.page && line < place.line);
}

export class DocumentRegions {
  private stats: { bodySize: number; repeated: Set<string>; references?: ReferencesList } | undefined;
  private readonly byPage = new Map<number, Region[]>();

  constructor(private readonly pages: readonly (PageText | undefined)[]) {}

  /** The region of the line holding the UTF-16 offset `at` of a page's text. */
  regionAt(page: number, at: number): Region {
    const regions = this.pageRegions(page);
    const text = this.pages[page - 1];
    if (!text || regions.length === 0) return "body";
    const lines = text.lines;
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lines[mid].startUtf16 <= at) lo = mid;
      else hi = mid - 1;
    }
    return regions[lo];
  }

  /** The region of every line of a page, in the order of PageText.lines. */
  pageRegions(page: number): Region[] {
    let regions = this.byPage.get(page);
    if (!regions) {
      const text = this.pages[page - 1];
      regions = text ? this.classify(text) : [];
      this.byPage.set(page, regions);
    }
    return regions;
  }

  private documentStats() {
    if (this.stats) return this.stats;
    const weight = new Map<number, number>();
    const seen = new Map<string, Set<number>>();
    let references: { page: number; line: number } | undefined;
    for (const text of this.pages) {
      if (!text) continue;
      const lines = text.lines;
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        if (line.fontSize > 0)
          weight.set(line.fontSize, (weight.get(line.fontSize) ?? 0) + line.endUtf16 - line.startUtf16);
        const words = lineText(text, line);
        if (REFERENCES_HEADING.test(words)) references = { page: text.page, line: i };
        if (edgeOf(text, line) !== undefined) {
          const key = edgeKey(text, line, words);
          let pages = seen.get(key);
          if (!pages) {
            pages = new Set();
            seen.set(key, pages);
          }
          pages.add(text.page);
        }
      }
    }
    let bodySize = 0;
    let best = 0;
    for (const [size, w] of weight) {
      if (w > best) {
        best = w;
        bodySize = size;
      }
    }
    const textPages = this.pages.filter((p) => p?.hasTextLayer).length;
    const needed = textPages <= 4 ? 2 : 3;
    const repeated = new Set<string>();
    for (const [key, pages] of seen) if (pages.size >= needed) repeated.add(key);
    const list = references
      ? { start: references, end: this.referencesEnd(references, bodySize) }
      : undefined;
    this.stats = { bodySize, repeated, ...(list ? { references: list } : {}) };
    return this.stats;
  }

  /**
   * The first heading after the references heading (set larger than the running text, or an
   * appendix's), or the first caption: tables and figures placed after the list are not part of it.
   */
  private referencesEnd(start: LinePlace, bodySize: number): LinePlace | undefined {
    for (let p = start.page; p <= this.pages.length; p++) {
      const text = this.pages[p - 1];
      if (!text) continue;
      const lines = text.lines;
      for (let i = p === start.page ? start.line + 1 : 0; i < lines.length; i++) {
        const line = lines[i];
        const words = lineText(text, line);
        if (words.length === 0 || words.length >= 80 || edgeOf(text, line) !== undefined) continue;
        if (
          line.fontSize > bodySize * 1.15 ||
          (APPENDIX_HEADING.test(words) && line.fontSize >= bodySize * 0.95) ||
          CAPTION_START.test(words)
        )
          return { page: p, line: i };
      }
    }
    return undefined;
  }

  private classify(text: PageText): Region[] {
    const { bodySize, repeated, references } = this.documentStats();
    const lines = text.lines;
    const regions: Region[] = new Array(lines.length).fill("body");
    const isBody = (l: LineInfo) =>
      bodySize > 0 && l.fontSize >= bodySize * SMALLER && l.fontSize <= bodySize * 1.25;
    let blockLeft = Number.POSITIVE_INFINITY;
    let blockRight = Number.NEGATIVE_INFINITY;
    let bodyLines = 0;
    for (const line of lines) {
      // The text block is where upright running text stands: a sideways stamp beside it is not in it.
      const upright = line.box.right - line.box.left > line.box.top - line.box.bottom;
      if (!isBody(line) || !upright || edgeOf(text, line) !== undefined) continue;
      bodyLines++;
      blockLeft = Math.min(blockLeft, line.box.left);
      blockRight = Math.max(blockRight, line.box.right);
    }
    const inReferences = (i: number) =>
      references !== undefined &&
      after(text.page, i, references.start) &&
      (references.end === undefined || before(text.page, i, references.end));
    let caption: LineInfo | undefined;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const words = lineText(text, line);
      const edge = edgeOf(text, line);
      if (edge !== undefined && (PAGE_NUMBER.test(words) || repeated.has(edgeKey(text, line, words)))) {
        regions[i] = "running-head";
        continue;
      }
      if (CAPTION_START.test(words)) {
        regions[i] = "caption";
        caption = line;
        continue;
      }
      if (inReferences(i)) {
        regions[i] = "references";
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
    markTables(text, lines, regions);
    return regions;
  }
}

function lineText(text: PageText, line: LineInfo): string {
  return text.text.slice(line.startUtf16, line.endUtf16).replace(/\s+/gu, " ").trim();
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

/** Runs of two or more body lines made mostly of figures, three tokens or more each, are a table. */
function markTables(text: PageText, lines: LineInfo[], regions: Region[]): void {
  const numeric = lines.map((line, i) => {
    if (regions[i] !== "body") return false;
    const tokens = lineText(text, line).split(" ");
    if (tokens.length < 3) return false;
    let figures = 0;
    for (const t of tokens) if (NUMERIC_TOKEN.test(t)) figures++;
    return figures * 2 >= tokens.length;
  });
  for (let i = 0; i < lines.length; ) {
    if (!numeric[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && numeric[j]) j++;
    if (j - i >= 2) for (let k = i; k < j; k++) regions[k] = "table";
    i = j;
  }
}
