/**
 * Section headings of a PDF, told from layout: a short line inside the text block, set larger than the
 * running text or in a bold face, that is a numbered title (`3.3 Related work`, `A.1 Proofs`, `IV. Results`)
 * or one of the usual unnumbered section names (`Abstract`, `References`). Numbered headings must follow one
 * another as section numbers do (a sibling's successor, a first child, an appendix letter), which keeps
 * numbered list items and table rows out. Without a sure signal a line is not a heading.
 */
import type { PageGeometry, PageText } from "../document/model.js";
import { documentFrames, type Frame } from "./text-frames.js";

export interface Heading {
  page: number;
  /** UTF-16 offset in the page's text where the heading's first character stands. */
  startUtf16: number;
  /** The heading's text as printed, number included. */
  title: string;
  /** The line's printed size (0 when unknown). */
  fontSize: number;
  /**
   * With `doubtful` asked for: an unnumbered line set apart by one signal only (bold at the body's
   * size, or larger in the body's face), which may be a heading or may be a line of the body.
   */
  doubtful?: true;
}

export interface HeadingOptions {
  /**
   * Also take an unnumbered title set larger and bold as a heading, and list an unnumbered title set
   * apart by one signal only as doubtful (a reader of sections must not trust a section across it).
   */
  doubtful?: boolean;
}

/** Unnumbered headings that papers and reports share, compared in lower case. */
export const SECTION_NAMES: ReadonlySet<string> = new Set([
  "abstract",
  "summary",
  "background",
  "introduction",
  "related work",
  "methods",
  "method",
  "methodology",
  "materials and methods",
  "patients and methods",
  "study design",
  "experiments",
  "experimental setup",
  "evaluation",
  "results",
  "findings",
  "results and discussion",
  "discussion",
  "limitations",
  "conclusion",
  "conclusions",
  "recommendations",
  "acknowledgements",
  "acknowledgments",
  "references",
  "bibliography",
  "appendix",
  "supplementary material",
]);

/** A heading's size is at least this much above the running text's. */
const LARGER = 1.08;
const MAX_TITLE_CHARS = 90;
const MAX_TITLE_WORDS = 14;
const NUMBERED =
  /^(?:(?:appendix|chapter|section)\s+)?((?:\d{1,2}|[A-Z])(?:\.\d{1,2}){0,3}|[IVX]{1,5})(\.?)\s+(\S.*)$/iu;
const NOT_A_TITLE =
  /^(?:fig(?:ure)?s?|tab(?:le)?s?|algorithm|listing|eq(?:uation)?|step|case|lemma|theorem|proof|example)\b/i;
const BOLD_FONT = /bold|black|heavy|semibold|demi|[-,]bd\b|cmbx|\.b\b/i;
const ITALIC_FONT = /ital|oblique|[-,]it\b|cmti|\.i\b/i;

type Numbering = number[];

/** A heading's printed number (`2.1`, `A`, `IV`) and its words, or undefined when it is unnumbered. */
export function headingNumber(title: string): { number: string; words: string } | undefined {
  const m = NUMBERED.exec(title);
  return m ? { number: m[1], words: m[3] } : undefined;
}

export function findHeadings(
  pages: readonly (PageText | undefined)[],
  geometry?: (page: number) => PageGeometry | undefined,
  options: HeadingOptions = {},
): Heading[] {
  const frames = documentFrames(pages);
  const repeated = repeatedLines(pages);
  // Bold sets a line apart only where the running text is not bold itself.
  const bodyBold = BOLD_FONT.test(bodyFontName(pages, frames.bodySize));
  const out: Heading[] = [];
  let previous: Numbering | undefined;
  // Under roman-numbered sections (`II. METHOD`) a letter is a subsection (`A. Data`), not an appendix.
  let romanTop = false;
  for (const page of pages) {
    if (!page) continue;
    const geom = geometry?.(page.page);
    for (const [index, line] of page.lines.entries()) {
      const raw = page.text.slice(line.startUtf16, line.endUtf16);
      const title = raw.trim().replace(/\s+/g, " ");
      if (title.length < 2 || title.length > MAX_TITLE_CHARS) continue;
      if (repeated.has(lineKey(title))) continue;
      const numbered = NUMBERED.exec(title);
      const larger = line.fontSize >= frames.bodySize * LARGER;
      // Per character when the geometry is held, else the line's own face (nearly all of it in one font).
      const face = (font: RegExp) =>
        geom !== undefined
          ? mostlyIn(font, page, geom, line.startUtf16, line.endUtf16)
          : line.font !== undefined && line.font >= 0 && font.test(page.fonts[line.font] ?? "");
      const bold = !bodyBold && face(BOLD_FONT);
      // A numbered title in capitals (`II. RELATED WORK`) is a heading even in the body's face, and so is
      // a lettered one in italics under such sections (`A. Data`).
      const capitals = numbered !== null && isCapitals(numbered[3]);
      const letteredItalic =
        romanTop && numbered !== null && /^[A-Z]$/.test(numbered[1]) && face(ITALIC_FONT);
      if (!larger && !capitals && !letteredItalic && !bold) continue;
      let accept = false;
      let doubtful = false;
      if (numbered && isTitleText(numbered[3])) {
        const n = numbering(numbered[1], romanTop ? previous : undefined);
        if (n && follows(previous, n)) {
          if (n.length === 1 && /^[IVX]+$/.test(numbered[1])) romanTop = true;
          previous = n;
          accept = true;
        }
      } else if (SECTION_NAMES.has(title.replace(/[.:]$/, "").toLowerCase())) {
        accept = true;
      } else if (
        options.doubtful &&
        !numbered &&
        isTitleText(title) &&
        standsAsHeading(page, index, frames.pageFrames[page.page - 1] ?? [], frames.bodySize)
      ) {
        // Two signals make an unnumbered heading; one leaves it in doubt.
        if (larger && bold) accept = true;
        else doubtful = true;
      }
      if (accept || doubtful) {
        out.push({
          page: page.page,
          startUtf16: line.startUtf16 + (raw.length - raw.trimStart().length),
          title,
          fontSize: line.fontSize,
          ...(doubtful ? { doubtful: true as const } : {}),
        });
      }
    }
  }
  return out;
}

/** How far a paragraph's first line may be indented from its column's left edge, in points. */
const MAX_INDENT = 24;
const EDGE = 2;

/**
 * Whether an unnumbered line stands where a heading does: short, at the left edge of one of its page's
 * columns or centred in it, and followed there by a line of running text (the body's size, as wide as
 * half the column). A figure's axis label or a name on a title page stands otherwise.
 */
function standsAsHeading(page: PageText, index: number, frames: readonly Frame[], bodySize: number): boolean {
  const line = page.lines[index];
  const next = page.lines[index + 1];
  if (!next || bodySize <= 0) return false;
  const middle = (line.box.left + line.box.right) / 2;
  const frame = frames.find(
    (f) => Math.abs(line.box.left - f.left) <= EDGE || Math.abs(middle - (f.left + f.right) / 2) <= EDGE * 2,
  );
  if (!frame) return false;
  const width = frame.right - frame.left;
  return (
    line.box.right - line.box.left <= width * 0.7 &&
    Math.abs(next.fontSize - bodySize) <= 0.5 &&
    next.box.left >= frame.left - EDGE &&
    next.box.left <= frame.left + MAX_INDENT &&
    next.box.right - next.box.left >= width * 0.5 &&
    next.box.top < line.box.bottom
  );
}

/** The font most of the running text's lines are set in (by characters), as named; "" when unknown. */
function bodyFontName(pages: readonly (PageText | undefined)[], bodySize: number): string {
  const count = new Map<string, number>();
  for (const page of pages) {
    if (!page) continue;
    for (const line of page.lines) {
      if (line.font === undefined || line.font < 0 || Math.abs(line.fontSize - bodySize) > 0.5) continue;
      const name = page.fonts[line.font] ?? "";
      count.set(name, (count.get(name) ?? 0) + line.endUtf16 - line.startUtf16);
    }
  }
  let best = "";
  let most = 0;
  for (const [name, n] of count) if (n > most) [best, most] = [name, n];
  return best;
}

/** A line's text with its digits blanked: a running head keeps its words from page to page. */
function lineKey(title: string): string {
  return title.replace(/\d+/g, "#").toLowerCase();
}

/** Lines printed on three pages or more: running heads and feet, never a heading. */
function repeatedLines(pages: readonly (PageText | undefined)[]): Set<string> {
  const seen = new Map<string, number>();
  for (const page of pages) {
    if (!page) continue;
    const onPage = new Set<string>();
    for (const line of page.lines) {
      const text = page.text.slice(line.startUtf16, line.endUtf16).trim().replace(/\s+/g, " ");
      if (text.length >= 2 && text.length <= MAX_TITLE_CHARS) onPage.add(lineKey(text));
    }
    for (const key of onPage) seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return new Set([...seen].filter(([, n]) => n >= 3).map(([key]) => key));
}

/** Words of a title: starts with a capital, mostly letters, no sentence end, no formula. */
function isTitleText(rest: string): boolean {
  if (!/^\p{Lu}/u.test(rest) || NOT_A_TITLE.test(rest)) return false;
  if (/[.;,]$/.test(rest) || /[=<>+^_\\{}]/.test(rest)) return false;
  const words = rest.split(" ");
  if (words.length > MAX_TITLE_WORDS) return false;
  const letters = (rest.match(/\p{L}/gu) ?? []).length;
  return letters >= 3 && letters >= rest.replace(/\s/g, "").length * 0.6;
}

function isCapitals(rest: string): boolean {
  const letters = rest.match(/\p{L}/gu) ?? [];
  return letters.length >= 4 && letters.every((c) => c === c.toUpperCase() && c !== c.toLowerCase());
}

/**
 * `3.2` -> [3, 2]; `A.1` -> [1001, 1]; `IV` -> [4]; a single I, V or X is roman. Under roman sections
 * (`underRoman` holds the current numbering) `B` -> [section, 2].
 */
function numbering(label: string, underRoman?: Numbering): Numbering | undefined {
  if (/^[IVX]+$/.test(label)) return [roman(label)];
  if (underRoman && /^[A-Z]$/.test(label)) return [underRoman[0], label.charCodeAt(0) - 64];
  const parts = label.split(".");
  const out: number[] = [];
  for (const [i, part] of parts.entries()) {
    if (/^\d+$/.test(part)) out.push(Number(part));
    else if (i === 0 && /^[A-Z]$/.test(part)) out.push(1000 + part.charCodeAt(0) - 64);
    else return undefined;
  }
  return out[0] === 0 ? undefined : out;
}

function roman(s: string): number {
  const v: Record<string, number> = { I: 1, V: 5, X: 10 };
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const a = v[s[i]];
    const b = v[s[i + 1]] ?? 0;
    total += a < b ? -a : a;
  }
  return total;
}

/**
 * Whether `next` can follow `prev` as section numbers do: the next sibling at some level (a skip of one
 * allowed, for a heading the rules missed), a first child, or the first appendix letter after numbered
 * sections.
 */
function follows(prev: Numbering | undefined, next: Numbering): boolean {
  const last = next[next.length - 1];
  // The first numbered heading opens its sequence: 1, 1.1 or I (an appendix letter never comes first).
  if (!prev) return next[0] < 1000 && last <= 2 && next.length <= 2;
  if (next.length === prev.length + 1 && prefix(prev, next) && last === 1) return true;
  if (next.length > prev.length) return false;
  const k = next.length - 1;
  if (!prefix(next.slice(0, k), prev)) return false;
  if (next[k] >= 1001 && prev[k] < 1000) return next[k] === 1001;
  return next[k] > prev[k] && next[k] - prev[k] <= 2;
}

function prefix(a: Numbering, b: Numbering): boolean {
  return a.every((v, i) => b[i] === v);
}

function mostlyIn(font: RegExp, page: PageText, geom: PageGeometry, from: number, to: number): boolean {
  let bold = 0;
  let all = 0;
  for (let u = from; u < to; u++) {
    const f = geom.fontIndex[u];
    if (f < 0) continue;
    all++;
    if (font.test(page.fonts[f] ?? "")) bold++;
  }
  return all > 0 && bold >= all * 0.8;
}
