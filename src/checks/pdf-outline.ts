/**
 * A PDF's section outline, from the headings its layout shows (src/layout/headings.ts): each heading
 * covers the text from where it stands to the next heading of its level or above, across pages, so the
 * words under a subsection are under its section too. Levels come from the number (`2.1` is under `2`);
 * an unnumbered section name (`References`) is a top-level one, and an unnumbered title set larger and
 * bold takes the level of its size among the headings' sizes. A line set apart by one signal only (bold
 * at the body's size, or larger in the body's face) is doubtful: no section is trusted across it.
 */
import type { PageText } from "../document/model.js";
import { findHeadings, headingNumber, SECTION_NAMES } from "../layout/headings.js";
import { sectionKey, sectionLocatorKey } from "./flow-scope.js";

/** A place in a PDF's text: a page and a UTF-16 offset in its text. */
export interface PdfPlace {
  page: number;
  startUtf16: number;
}

export interface OutlineHeading extends PdfPlace {
  title: string;
  level: number;
  /** The enclosing heading, or -1. */
  parent: number;
  /** Where the heading's section ends (the next heading of its level or above), or undefined at the end. */
  end: PdfPlace | undefined;
  /**
   * False when the heading that ends it is not its numbered successor (`2` then `4`): a heading between
   * was not read, so where this section ends is not known.
   */
  endKnown: boolean;
  /** Its number's parts (`2.1` -> [2, 1], `A` -> [65]), or undefined when unnumbered. */
  parts: number[] | undefined;
  /** Its names folded: the title as printed, its words, its number. */
  keys: string[];
}

function before(a: PdfPlace, b: PdfPlace): boolean {
  return a.page < b.page || (a.page === b.page && a.startUtf16 < b.startUtf16);
}

export class PdfOutline {
  readonly headings: OutlineHeading[];
  /** Lines that may be headings or may be body lines (headings.ts), with their titles folded. */
  readonly doubtful: (PdfPlace & { title: string; key: string })[];

  constructor(pages: readonly (PageText | undefined)[]) {
    const all = findHeadings(pages, undefined, { doubtful: true });
    const found = all.filter((h) => !h.doubtful);
    this.doubtful = all
      .filter((h) => h.doubtful)
      .map((h) => ({ page: h.page, startUtf16: h.startUtf16, title: h.title, key: sectionKey(h.title) }));
    // The headings' sizes, largest first: an unnumbered title's level is its size's rank.
    const sizes = [...new Set(found.map((h) => Math.round(h.fontSize * 2) / 2))].sort((a, b) => b - a);
    const stack: number[] = [];
    this.headings = [];
    for (const h of found) {
      const numbered = headingNumber(h.title);
      const named = SECTION_NAMES.has(h.title.replace(/[.:]$/, "").toLowerCase());
      const level = numbered
        ? numbered.number.split(".").length
        : named
          ? 1
          : sizes.indexOf(Math.round(h.fontSize * 2) / 2) + 1;
      const parts = numbered ? numberParts(numbered.number) : undefined;
      while (stack.length > 0 && this.headings[stack[stack.length - 1]].level >= level) {
        const ended = this.headings[stack.pop() as number];
        ended.end = { page: h.page, startUtf16: h.startUtf16 };
        ended.endKnown = successor(ended.parts, parts);
      }
      const names = [h.title, ...(numbered ? [numbered.words, numbered.number] : [])];
      this.headings.push({
        page: h.page,
        startUtf16: h.startUtf16,
        title: h.title,
        level,
        parent: stack.length > 0 ? stack[stack.length - 1] : -1,
        end: undefined,
        endKnown: true,
        parts,
        keys: [...new Set(names.map(sectionKey))],
      });
      stack.push(this.headings.length - 1);
    }
  }

  /** The headings a section locator names: its words, its number, or both. */
  named(section: string): number[] {
    const wanted = sectionLocatorKey(section);
    if (wanted === "") return [];
    return this.headings.flatMap((h, i) => (h.keys.includes(wanted) ? [i] : []));
  }

  /** Whether a doubtful line stands between heading `i` and a place after it: a heading there would end it. */
  doubtfulBetween(i: number, at: PdfPlace): boolean {
    const h = this.headings[i];
    return this.doubtful.some((d) => !before(d, h) && before(d, at));
  }

  /** The doubtful lines a section locator names. */
  doubtfulNamed(section: string): string[] {
    const wanted = sectionLocatorKey(section);
    return wanted === "" ? [] : this.doubtful.filter((d) => d.key === wanted).map((d) => d.title);
  }

  /** Whether a place stands under heading `i` (in its section or a subsection of it). */
  holds(i: number, at: PdfPlace): boolean {
    const h = this.headings[i];
    return !before(at, h) && (h.end === undefined || before(at, h.end));
  }

  /** The innermost heading a place stands under, or -1 before the first heading. */
  headingAt(at: PdfPlace): number {
    let found = -1;
    for (let i = 0; i < this.headings.length && !before(at, this.headings[i]); i++) found = i;
    return found;
  }

  /** `2 Methods > 2.1 Data`: the heading and those it stands under. */
  chainName(i: number): string {
    const titles: string[] = [];
    for (let at = i; at >= 0; at = this.headings[at].parent) titles.unshift(this.headings[at].title);
    return titles.join(" > ");
  }
}

/** `2.1` -> [2, 1]; a letter or roman numeral part by its code, enough to tell a successor. */
function numberParts(number: string): number[] {
  if (ROMAN.includes(number)) return [ROMAN.indexOf(number) + 1];
  return number.split(".").map((p) => (/^\d+$/u.test(p) ? Number(p) : p.charCodeAt(0)));
}

const LETTER_A = 65;
const ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV"];

/**
 * Whether `next` (the heading that ends a section numbered `prev`) is the one that directly follows it at
 * its own level or above: `2` -> `3`, `2.3` -> `3` or `2.4`. An unnumbered heading on either side tells nothing.
 */
function successor(prev: number[] | undefined, next: number[] | undefined): boolean {
  if (prev === undefined || next === undefined) return true;
  const k = next.length - 1;
  if (k >= prev.length) return true;
  // The first appendix letter after numbered sections (`5` -> `A`).
  if (k === 0 && next[0] >= LETTER_A && prev[0] < LETTER_A) return next[0] === LETTER_A;
  return next.slice(0, k).every((v, i) => prev[i] === v) && next[k] === prev[k] + 1;
}
