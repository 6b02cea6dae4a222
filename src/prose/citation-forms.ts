import { citationWordPattern } from "./citation-words.js";

/**
 * The citation forms a draft's prose is read for, in any case and with or without the period:
 * `p. N`, `page N`, `Eq. (L)`, `equation (L)`, `Fig. (L)`, `figure (L)`, and subfigures written
 * `Fig. 5a` or `Fig. 5(a)` (the label `5a`), and the same in other languages (`S. 12`, `pág. 45`,
 * `Gl. (19)`, `Abb. (6)`, `рис. (2)`, `第 7 页`; citation-words.ts). Forms that look like
 * citations but are not read (`pp. 3-4`, `pages 2-3`, `p. 3-4`, `Eq. 7`, `Eqs. (1)-(2)`, `Fig. 1`,
 * `Figure 3`) are found too, so a report can list them as not checked.
 */

export type ProseAnchor =
  /**
   * `digits`: the page as the draft writes it, leading zeros dropped; `page` is its number, exact
   * only while the digits are a safe integer (a longer page still names no page of any file).
   */
  | { kind: "page"; page: number; digits: string }
  | { kind: "equation"; label: string }
  | { kind: "figure"; label: string };

export interface CitationForm {
  anchor: ProseAnchor;
  /** The citation as the draft writes it, whitespace runs collapsed. */
  written: string;
  startUtf16: number;
  endUtf16: number;
}

export interface UnsupportedForm {
  written: string;
  startUtf16: number;
  endUtf16: number;
}

// Not preceded by a letter or digit, so "pp." is not read as "p." and "freq." is not "eq.".
const B = "(?<![\\p{L}\\p{N}])";
// A page range with one page's form: "p. 3-4"; a list after a plural form: "pp. 3, 5 and 7".
const DASH = "\\s*[-\\u2010-\\u2015]+\\s*";
const RANGE = "\\s*(?:[-\\u2010-\\u2015]+|to|and|,)\\s*";
const NUMBER_LABEL = "\\d+(?:\\.\\d+)*[a-z]?";
// A label in parentheses: short, holding a digit; "(see below)" is not a citation.
const PAREN_LABEL = "\\(\\s*([^()\\n]{0,24}?\\d[^()\\n]{0,24}?)\\s*\\)";

const PAGE_WORD = citationWordPattern("page");
const FIGURE_WORD = citationWordPattern("figure");
const PAGE = new RegExp(`${PAGE_WORD}(\\d+)(?![\\p{L}\\p{N}]|[.,]\\d|${DASH}\\d)`, "giu");
/** Chinese and Japanese set the page after its number: 第 7 页, 第7頁, 7 頁. */
const CJK_PAGE = /(?:第\s*)?(?<!\d)(\d+)\s*[页頁]/gu;
const EQUATION_WORD = citationWordPattern("equation");
const EQUATION = new RegExp(`${EQUATION_WORD}${PAREN_LABEL}`, "giu");
const FIGURE = new RegExp(`${FIGURE_WORD}${PAREN_LABEL}`, "giu");
// A subfigure: the figure's number and its panel's lowercase letter, "Fig. 5a", "Figure 5(a)".
const SUBFIGURE = new RegExp(
  `${FIGURE_WORD}(\\d+(?:\\.\\d+)*)(?:([a-z])|\\(([a-z])\\))(?![\\p{L}\\p{N}])`,
  "giu",
);

const UNSUPPORTED: RegExp[] = [
  new RegExp(`${B}pp\\.?\\s*\\d+(?:${RANGE}\\d+)*(?![\\p{L}\\p{N}])`, "giu"),
  new RegExp(`${B}pages\\s+\\d+(?:${RANGE}\\d+)*(?![\\p{L}\\p{N}])`, "giu"),
  new RegExp(`${PAGE_WORD}\\d+(?:${DASH}\\d+)+(?![\\p{L}\\p{N}])`, "giu"),
  new RegExp(`${B}(?:eqs?|eqns?|equations?)\\.?\\s*${NUMBER_LABEL}(?![\\p{L}\\p{N}])`, "giu"),
  new RegExp(
    `${B}(?:eqs\\.?|eqns\\.?|equations)\\s*\\([^()\\n]{1,24}\\)(?:${RANGE}\\([^()\\n]{1,24}\\))*`,
    "giu",
  ),
  new RegExp(`${B}(?:figs?|figures?)\\.?\\s*${NUMBER_LABEL}(?![\\p{L}\\p{N}])`, "giu"),
  // The same without parentheses in every language: "Abb. 3", "Gl. 7", "рис. 2".
  new RegExp(`${FIGURE_WORD}${NUMBER_LABEL}(?![\\p{L}\\p{N}])`, "giu"),
  new RegExp(`${EQUATION_WORD}${NUMBER_LABEL}(?![\\p{L}\\p{N}])`, "giu"),
  new RegExp(`${B}(?:figs\\.?|figures)\\s*\\([^()\\n]{1,24}\\)(?:${RANGE}\\([^()\\n]{1,24}\\))*`, "giu"),
];

export function findCitationForms(draft: string): CitationForm[] {
  const forms: CitationForm[] = [];
  for (const m of draft.matchAll(PAGE)) {
    forms.push(form(m, pageAnchor(m[1])));
  }
  for (const m of draft.matchAll(CJK_PAGE)) {
    forms.push(form(m, pageAnchor(m[1])));
  }
  for (const m of draft.matchAll(EQUATION)) {
    forms.push(form(m, { kind: "equation", label: m[1].trim() }));
  }
  for (const m of draft.matchAll(FIGURE)) {
    forms.push(form(m, { kind: "figure", label: m[1].trim() }));
  }
  for (const m of draft.matchAll(SUBFIGURE)) {
    const letter = m[2] ?? m[3];
    // The keyword is read in any case, the panel's letter only in lower case ("Fig. 3A" is not read).
    if (letter !== letter.toLowerCase()) continue;
    forms.push(form(m, { kind: "figure", label: `${m[1]}${letter}` }));
  }
  return forms.sort((a, b) => a.startUtf16 - b.startUtf16);
}

/** Look-alike forms that are not read, leaving out any that overlap a `taken` range. */
export function findUnsupportedForms(
  draft: string,
  taken: readonly { startUtf16: number; endUtf16: number }[],
): UnsupportedForm[] {
  const found: UnsupportedForm[] = [];
  const overlaps = (s: number, e: number, ranges: readonly { startUtf16: number; endUtf16: number }[]) =>
    ranges.some((r) => s < r.endUtf16 && r.startUtf16 < e);
  for (const re of UNSUPPORTED) {
    for (const m of draft.matchAll(re)) {
      const start = m.index ?? 0;
      const end = start + m[0].length;
      if (overlaps(start, end, taken) || overlaps(start, end, found)) continue;
      found.push({ written: collapse(m[0]), startUtf16: start, endUtf16: end });
    }
  }
  return found.sort((a, b) => a.startUtf16 - b.startUtf16);
}

/** The canonical way a report names an anchor: `p. 3`, `Eq. (2.1)`, `Fig. (4)`. */
export function anchorName(anchor: ProseAnchor): string {
  switch (anchor.kind) {
    case "page":
      return `p. ${anchor.digits}`;
    case "equation":
      return `Eq. (${anchor.label})`;
    case "figure":
      return `Fig. (${anchor.label})`;
  }
}

/** The page anchor for a page's decimal digits. */
export function pageAnchor(digits: string): ProseAnchor & { kind: "page" } {
  const kept = digits.replace(/^0+(?=\d)/u, "");
  return { kind: "page", page: Number(kept), digits: kept };
}

/** Whether a page anchor's number is exactly the page the draft wrote. */
export function exactPage(anchor: ProseAnchor & { kind: "page" }): boolean {
  return Number.isSafeInteger(anchor.page);
}

function form(m: RegExpMatchArray, anchor: ProseAnchor): CitationForm {
  const start = m.index ?? 0;
  return { anchor, written: collapse(m[0]), startUtf16: start, endUtf16: start + m[0].length };
}

function collapse(text: string): string {
  return text.replace(/\s+/gu, " ");
}
