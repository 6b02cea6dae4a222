/**
 * Words that run across a page break: from the foot of one page's body onto the top of the next
 * page's body, in reading order, passing over the furniture between them (the first page's footnotes
 * and foot, the second page's running head; see page-furniture.ts). The two bodies are joined with a
 * line break and folded as one text; a match counts only when it starts on the first page and ends on
 * the second, so it holds the last words of the one and the first words of the other.
 */
import type { LineInfo, PageText } from "../document/model.js";
import { dominantSize } from "./body-flow.js";
import { type FoldedText, fold, type HyphenReading } from "./fold.js";
import { type FoldedPages, onWordBoundaries } from "./folded-pages.js";
import { outOfOrderEnds } from "./page-ends.js";
import { furnitureLines } from "./page-furniture.js";

export interface PagePart {
  page: number;
  /** UTF-16 offsets in that page's text. */
  startUtf16: number;
  endUtf16: number;
}

export interface AcrossBreak {
  parts: [PagePart, PagePart];
  reading: HyphenReading;
}

interface Joined {
  /** The first page's body, a line break, the second page's body. */
  text: string;
  /** Where the second page's text starts in `text`. */
  boundary: number;
  /** Folded views by reading of line-end hyphens and whether raised marks end a word. */
  views: Map<string, FoldedText>;
  hyphens: number[];
  /** Where a raised mark is glued to a word (a footnote's mark): read as a word boundary in the marks reading. */
  marks: number[];
  /** Whether the first page's body ends in a hyphen after a letter (a word running on). */
  endsHyphenated: boolean;
}

const joins = new WeakMap<FoldedPages, Map<number, Joined | null>>();

/** The break after page `first`, joined and ready to fold; null when either page is missing. */
function joinedAfter(pages: FoldedPages, first: number): Joined | null {
  let held = joins.get(pages);
  if (!held) {
    held = new Map();
    joins.set(pages, held);
  }
  let joined = held.get(first);
  if (joined === undefined) {
    const a = pages.pages.get(first);
    const b = pages.pages.get(first + 1);
    joined = a && b ? join(a, b, bodySizeOf(pages)) : null;
    held.set(first, joined);
  }
  return joined;
}

/** Bodies made, by page and by the body font size they were made with (it is the pages read's, so it varies). */
const bodies = new WeakMap<PageText, Map<number, string>>();
const bodySizes = new WeakMap<FoldedPages, number>();

/** The font size that carries the most characters over every page read (0 when none has one). */
function bodySizeOf(pages: FoldedPages): number {
  let size = bodySizes.get(pages);
  if (size === undefined) {
    size = dominantSize(pages.pages.held().flatMap((p) => p.lines));
    bodySizes.set(pages, size);
  }
  return size;
}

/**
 * A page's body text, made once (a page is the first of one break and the second of another): its
 * furniture and the lines out of reading order at either end blanked (same length, offsets kept).
 */
function bodyOf(page: PageText, bodySize: number): string {
  let made = bodies.get(page);
  if (!made) {
    made = new Map();
    bodies.set(page, made);
  }
  let body = made.get(bodySize);
  if (body === undefined) {
    const furniture = furnitureLines(page, bodySize > 0 ? bodySize : undefined);
    body = blank(page.text, [...furniture, ...outOfOrderEnds(page, new Set(furniture))]);
    made.set(bodySize, body);
  }
  return body;
}

function blank(text: string, lines: readonly LineInfo[]): string {
  if (lines.length === 0) return text;
  let out = "";
  let at = 0;
  for (const line of [...lines].sort((a, b) => a.startUtf16 - b.startUtf16)) {
    out += text.slice(at, line.startUtf16) + " ".repeat(line.endUtf16 - line.startUtf16);
    at = line.endUtf16;
  }
  return out + text.slice(at);
}

const LETTER = /\p{L}/u;
const HYPHENS = new Set(["-", "\u2010"]);

function join(a: PageText, b: PageText, bodySize: number): Joined {
  const boundary = a.text.length + 1;
  const bodyA = bodyOf(a, bodySize);
  const hyphens = [...a.lineEndHyphensUtf16];
  // The body's last character: a hyphen after a letter is a line-end hyphen the page's end cut off.
  let last = bodyA.length - 1;
  while (last >= 0 && /\s/.test(bodyA[last])) last--;
  const endsHyphenated = last > 0 && HYPHENS.has(bodyA[last]) && LETTER.test(bodyA[last - 1]);
  if (endsHyphenated && !hyphens.includes(last)) hyphens.push(last);
  return {
    text: `${bodyA}\n${bodyOf(b, bodySize)}`,
    boundary,
    views: new Map(),
    hyphens: [...hyphens, ...b.lineEndHyphensUtf16.map((h) => h + boundary)],
    marks: [...(a.scriptBreaksUtf16 ?? []), ...(b.scriptBreaksUtf16 ?? []).map((m) => m + boundary)],
    endsHyphenated,
  };
}

function view(joined: Joined, reading: HyphenReading, marks = false): FoldedText {
  const key = `${reading}:${marks}`;
  let folded = joined.views.get(key);
  if (!folded) {
    folded = fold(joined.text, {
      lineEndHyphensUtf16: joined.hyphens,
      hyphenReading: reading,
      breaksUtf16: marks ? joined.marks : undefined,
    });
    joined.views.set(key, folded);
  }
  return folded;
}

/** The joined text of the break after page `first` folded with one reading, and where the second page starts. */
export function joinedView(
  pages: FoldedPages,
  first: number,
  reading: HyphenReading,
): { view: FoldedText; text: string; boundary: number } | undefined {
  const joined = joinedAfter(pages, first);
  if (!joined) return undefined;
  return { view: view(joined, reading), text: joined.text, boundary: joined.boundary };
}

/**
 * The folded needle running from page `first` onto page `first + 1`, or undefined. The pages' own
 * views rule most breaks out before anything is joined: the needle's first word must be on the first
 * page and its last word on the second.
 */
export function findAcrossBreak(pages: FoldedPages, first: number, needle: string): AcrossBreak | undefined {
  if (needle.length === 0 || first < 1 || first >= pages.pages.count) return undefined;
  const words = needle.split(" ");
  const onA = pages.view(first, "joined")?.text;
  const onB = pages.view(first + 1, "joined")?.text;
  if (!onA || !onB) return undefined;
  const firstOnA = onA.includes(words[0].replace(/-$/, ""));
  const lastOnB = onB.includes(words[words.length - 1]);
  if (!firstOnA && !lastOnB) return undefined;
  const joined = joinedAfter(pages, first);
  // A word hyphenated across the break stands whole on neither page: the needle may start or end with it.
  if (!joined || ((!firstOnA || !lastOnB) && !joined.endsHyphenated)) return undefined;
  const readings: HyphenReading[] = joined.hyphens.length > 0 ? ["joined", "kept"] : ["joined"];
  // Raised marks read as word ends last, as a page's own views try them (folded-pages.ts).
  const variants = (joined.marks.length > 0 ? [false, true] : [false]).flatMap((marks) =>
    readings.map((reading) => ({ reading, marks })),
  );
  const { from, to } = windowAround(joined, needle.length);
  for (const { reading, marks } of variants) {
    const folded =
      from === 0 && to === joined.text.length
        ? view(joined, reading, marks)
        : windowView(joined, from, to, reading, marks);
    for (let at = folded.text.indexOf(needle); at >= 0; at = folded.text.indexOf(needle, at + 1)) {
      if (!onWordBoundaries(folded.text, at, needle)) continue;
      const start = folded.startUtf16[at] + from;
      const end = folded.endUtf16[at + needle.length - 1] + from;
      if (start >= joined.boundary || end <= joined.boundary) continue;
      return { parts: splitAt(joined, start, end, first), reading };
    }
  }
  return undefined;
}

/**
 * The stretch of the joined text [from, to) that every match of `units` folded units running across
 * the break lies in. Each ASCII letter or digit folds to a unit of its own, so a match cannot start
 * before `units` of them stand between it and the break, nor end past as many after it. The stretch
 * is cut where a letter or digit, a space and a letter or digit stand in a row (before the second
 * one, or before the space): folding the stretch alone there gives the units the whole text gives,
 * no space, line-end hyphen or accent reaching across the cut.
 */
function windowAround(joined: Joined, units: number): { from: number; to: number } {
  const text = joined.text;
  let from = joined.boundary - 1;
  for (let seen = 0; from > 0 && seen < units; from--) if (isAsciiWordUnit(text.charCodeAt(from - 1))) seen++;
  while (from > 0 && !cutBefore(text, from)) from--;
  let to = joined.boundary;
  for (let seen = 0; to < text.length && seen < units; to++) if (isAsciiWordUnit(text.charCodeAt(to))) seen++;
  while (to < text.length && !cutBefore(text, to)) to++;
  return { from, to };
}

/** Whether text[at - 1], text[at] read letter-or-digit then space, or space then letter-or-digit, between two such. */
function cutBefore(text: string, at: number): boolean {
  if (at < 2 || at + 1 >= text.length) return false;
  const [a, b, c] = [text.charCodeAt(at - 2), text.charCodeAt(at - 1), text.charCodeAt(at)];
  const d = text.charCodeAt(at + 1);
  return (
    (isAsciiWordUnit(a) && isAsciiSpace(b) && isAsciiWordUnit(c)) ||
    (isAsciiWordUnit(b) && isAsciiSpace(c) && isAsciiWordUnit(d))
  );
}

function isAsciiWordUnit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** The stretch [from, to) of the joined text folded alone, its offsets relative to `from`. */
function windowView(
  joined: Joined,
  from: number,
  to: number,
  reading: HyphenReading,
  marks: boolean,
): FoldedText {
  const within = (offsets: number[]) => offsets.filter((h) => h >= from && h < to).map((h) => h - from);
  return fold(joined.text.slice(from, to), {
    lineEndHyphensUtf16: within(joined.hyphens),
    hyphenReading: reading,
    breaksUtf16: marks ? within(joined.marks) : undefined,
  });
}

/** The match's two parts, each in its own page's offsets, without the whitespace around the break. */
function splitAt(joined: Joined, start: number, end: number, first: number): [PagePart, PagePart] {
  const text = joined.text;
  let aEnd = joined.boundary - 1;
  while (aEnd > start && /\s/.test(text[aEnd - 1])) aEnd--;
  let bStart = joined.boundary;
  while (bStart < end && /\s/.test(text[bStart])) bStart++;
  return [
    { page: first, startUtf16: start, endUtf16: aEnd },
    { page: first + 1, startUtf16: bStart - joined.boundary, endUtf16: end - joined.boundary },
  ];
}
