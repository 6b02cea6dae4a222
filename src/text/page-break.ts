/**
 * Words that run across a page break: from the foot of one page's body onto the top of the next
 * page's body, in reading order, passing over the furniture between them (the first page's footnotes
 * and foot, the second page's running head; see page-furniture.ts). The two bodies are joined with a
 * line break and folded as one text; a match counts only when it starts on the first page and ends on
 * the second, so it holds the last words of the one and the first words of the other.
 */
import type { PageText } from "../document/model.js";
import { type FoldedText, fold, type HyphenReading } from "./fold.js";
import { type FoldedPages, onWordBoundaries } from "./folded-pages.js";
import { bodyText } from "./page-furniture.js";

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
  views: Map<HyphenReading, FoldedText>;
  hyphens: number[];
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
    const a = pages.pages[first - 1];
    const b = pages.pages[first];
    joined = a && b ? join(a, b) : null;
    held.set(first, joined);
  }
  return joined;
}

function join(a: PageText, b: PageText): Joined {
  const boundary = a.text.length + 1;
  return {
    text: `${bodyText(a)}\n${bodyText(b)}`,
    boundary,
    views: new Map(),
    hyphens: [...a.lineEndHyphensUtf16, ...b.lineEndHyphensUtf16.map((h) => h + boundary)],
  };
}

function view(joined: Joined, reading: HyphenReading): FoldedText {
  let folded = joined.views.get(reading);
  if (!folded) {
    folded = fold(joined.text, { lineEndHyphensUtf16: joined.hyphens, hyphenReading: reading });
    joined.views.set(reading, folded);
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
  if (needle.length === 0 || first < 1 || first >= pages.pages.length) return undefined;
  const words = needle.split(" ");
  const onA = pages.view(first, "joined")?.text;
  const onB = pages.view(first + 1, "joined")?.text;
  if (!onA || !onB || !onA.includes(words[0].replace(/-$/, "")) || !onB.includes(words[words.length - 1]))
    return undefined;
  const joined = joinedAfter(pages, first);
  if (!joined) return undefined;
  const readings: HyphenReading[] = joined.hyphens.length > 0 ? ["joined", "kept"] : ["joined"];
  for (const reading of readings) {
    const folded = view(joined, reading);
    for (let at = folded.text.indexOf(needle); at >= 0; at = folded.text.indexOf(needle, at + 1)) {
      if (!onWordBoundaries(folded.text, at, needle)) continue;
      const start = folded.startUtf16[at];
      const end = folded.endUtf16[at + needle.length - 1];
      if (start >= joined.boundary || end <= joined.boundary) continue;
      return { parts: splitAt(joined, start, end, first), reading };
    }
  }
  return undefined;
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
