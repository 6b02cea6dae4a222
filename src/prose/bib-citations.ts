/**
 * Bibliographic citations in a draft: pandoc (`[@key, p. 7]`, `[see @a; -@b, sec. 2]`, `@key [p. 7]`),
 * LaTeX natbib and biblatex (`\cite[p.~7]{key}`, `\citep[see][7]{a,b}`, `\parencites[7]{a}[9]{b}`),
 * numeric (`[3, p. 7]`, `[3, 5-7]`) and author-year (`(Smith 2024, p. 7)`, `Smith et al. (2024a)`),
 * each cited work with its locator; and the quotations each one is given: a quotation belongs to the
 * citation written right after it, else to the nearest one before it in its sentence, else after it.
 * Where forms overlap, LaTeX is read first, then pandoc, numeric, author-year. Offsets are UTF-16.
 */

import { type Locator, readLocator } from "./locators.js";
import { findQuotedSpans, type QuotedSpan } from "./quotes.js";
import { search } from "./read-draft.js";
import { splitSentences } from "./sentences.js";

export const CITATION_STYLES = ["pandoc", "latex", "numeric", "author-year"] as const;
export type CitationStyle = (typeof CITATION_STYLES)[number];

export const DRAFT_KINDS = ["markdown", "latex", "text"] as const;
export type DraftKind = (typeof DRAFT_KINDS)[number];

export type CitedWork =
  | { by: "key"; key: string }
  | { by: "number"; number: number }
  /** `names`: the family names as written; `narrative`: `Smith (2024)`, the names outside the parentheses. */
  | { by: "author-year"; names: string[]; etAl: boolean; year: string; suffix: string; narrative: boolean };

export interface CitedRef {
  work: CitedWork;
  /** How outcomes name the work: the key, `[3]`, `Smith 2024a`. */
  key: string;
  locator?: Locator;
  /** The postnote or suffix as written when it names no locator this reads. */
  note?: string;
}

export interface CitationGroup {
  style: CitationStyle;
  refs: CitedRef[];
  /** The citation as written, whitespace runs collapsed. */
  written: string;
  startUtf16: number;
  endUtf16: number;
}

export interface DraftCitation {
  ref: CitedRef;
  group: CitationGroup;
  quote?: QuotedSpan;
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
}

export interface DraftCitations {
  kind: DraftKind;
  /** One per cited work and quotation it is given (a work given none: one, without a quote); in draft order. */
  citations: DraftCitation[];
  /** Quotations whose sentence cites nothing. */
  unanchored: { quote: QuotedSpan; line: number; column: number }[];
  /**
   * The keys of a numbered reference list the draft holds itself (pandoc's citeproc writes one:
   * `::: {#ref-KEY .csl-entry}` opening with `[1]`), by number; empty when it holds none.
   */
  numbered: Map<number, string>;
}

/** The draft's kind by its file name's extension, else by its content. */
export function draftKind(text: string, name?: string): DraftKind {
  const ext = name?.toLowerCase().match(/\.([a-z]+)$/u)?.[1];
  if (ext === "tex" || ext === "ltx" || ext === "latex") return "latex";
  if (ext === "md" || ext === "markdown" || ext === "qmd" || ext === "rmd") return "markdown";
  if (ext === "txt") return "text";
  const head = text.slice(0, 200_000);
  if (/\\(?:documentclass|begin\{document\}|section\{)|\\[A-Za-z]*cite[a-z]*\*?\s*[[{]/u.test(head))
    return "latex";
  if (/(?:^|[\s[;])-?@[\p{L}\p{N}_]/u.test(head) || /^#{1,6}\s/mu.test(head)) return "markdown";
  return "text";
}

/** Reads a draft's citations and the quotations they are given. */
export function readDraftCitations(draft: string, kind: DraftKind = draftKind(draft)): DraftCitations {
  const text = kind === "latex" ? latexAsProse(draft) : kind === "markdown" ? markdownAsProse(draft) : draft;
  const spans = findQuotedSpans(text);
  const groups = findCitationGroups(text, kind, spans);
  const sentences = splitSentences(text, spans);
  const sentenceStarts = sentences.map((s) => s.startUtf16);
  const sentenceOf = (at: number) => Math.max(0, search(sentenceStarts, at));
  const place = placeIndex(text);
  const bySentence = new Map<number, CitationGroup[]>();
  for (const g of groups) {
    const s = sentenceOf(g.startUtf16);
    const list = bySentence.get(s) ?? [];
    list.push(g);
    bySentence.set(s, list);
  }
  const quotesOf = new Map<CitationGroup, QuotedSpan[]>();
  const unanchored: DraftCitations["unanchored"] = [];
  for (const span of spans) {
    if (span.status !== "counted") continue;
    const owner = ownerOf(text, span, bySentence.get(sentenceOf(span.startUtf16)) ?? []);
    if (!owner) {
      unanchored.push({ quote: span, ...place(span.startUtf16) });
      continue;
    }
    const list = quotesOf.get(owner) ?? [];
    list.push(span);
    quotesOf.set(owner, list);
  }
  const citations: DraftCitation[] = [];
  for (const group of groups) {
    const quotes = quotesOf.get(group) ?? [];
    const holder = quoteHolder(group);
    for (const ref of group.refs) {
      const at = { group, ...place(group.startUtf16) };
      if (ref !== holder || quotes.length === 0) citations.push({ ref, ...at });
      else for (const quote of quotes) citations.push({ ref, quote, ...at });
    }
  }
  return { kind, citations, unanchored, numbered: numberedReferences(draft, kind) };
}

const CSL_ENTRY = /^:{3,}\s*\{#ref-([^\s}]+)[^\n]*\.csl-entry[^\n]*\n\[?\\?\[(\d{1,6})\\?\]/gmu;

/** In LaTeX: `\hypertarget{ref-KEY}{}}%` then `\CSLLeftMargin{{[}3{]} }`. */
const CSL_ENTRY_LATEX = /\\hypertarget\{ref-([^\s}]+)\}\{\}\}%?\s*\\CSLLeftMargin\{\{\[\}(\d{1,6})\{\]\}/gu;

/**
 * A numbered reference list pandoc's citeproc writes into the draft: in Markdown
 * `::: {#ref-KEY .csl-entry}` followed by its number (`[\[3\] ]{.csl-left-margin}`), in LaTeX its
 * `\hypertarget` and `\CSLLeftMargin`: number to key.
 */
function numberedReferences(draft: string, kind: DraftKind): Map<number, string> {
  const keys = new Map<number, string>();
  const entries = kind === "markdown" ? CSL_ENTRY : kind === "latex" ? CSL_ENTRY_LATEX : undefined;
  if (entries)
    for (const m of draft.matchAll(entries)) if (!keys.has(Number(m[2]))) keys.set(Number(m[2]), m[1]);
  return keys;
}

/** The cited work of a group that takes its quotations: the first with a locator, else the first. */
function quoteHolder(group: CitationGroup): CitedRef {
  return group.refs.find((r) => r.locator !== undefined) ?? group.refs[0];
}

/** The citation written right after the quotation, else the nearest before it in its sentence, else after. */
function ownerOf(text: string, span: QuotedSpan, groups: CitationGroup[]): CitationGroup | undefined {
  const after = groups.find((g) => g.startUtf16 >= span.endUtf16);
  if (
    after &&
    /^[^\S\n]*[,.]?[^\S\n]*\n?[^\S\n]*\(?[^\S\n]*$/u.test(text.slice(span.endUtf16, after.startUtf16))
  )
    return after;
  let before: CitationGroup | undefined;
  for (const g of groups) if (g.endUtf16 <= span.startUtf16) before = g;
  return before ?? after;
}

/**
 * LaTeX source as prose at the same offsets: comments and pandoc's reference list blanked, ``…'' and \enquote{…} as curly
 * quotes, ties and thin spaces as spaces. Every replacement keeps the length.
 */
export function latexAsProse(tex: string): string {
  let out = tex.replace(/(?<!\\)%[^\n]*/gu, (m) => " ".repeat(m.length));
  // The reference list pandoc's citeproc writes: its quoted titles are no quotations of the draft.
  out = out.replace(/\\begin\{CSLReferences\}[\s\S]*?\\end\{CSLReferences\}/gu, (m) =>
    m.replace(/[^\n]/gu, " "),
  );
  out = out.replace(/``/gu, "\u201c ").replace(/''/gu, " \u201d").replace(/~/gu, " ");
  const chars = out.split("");
  for (const m of out.matchAll(/\\enquote\*?\{/gu)) {
    const start = m.index ?? 0;
    const open = start + m[0].length - 1;
    const close = matchingBrace(out, open);
    if (close < 0) continue;
    chars[start] = "\u201c";
    for (let i = start + 1; i <= open; i++) chars[i] = " ";
    chars[close] = "\u201d";
  }
  return chars.join("");
}

/**
 * Markdown as prose at the same offsets: a bracket, parenthesis or `@` escaped with a backslash
 * (`\[3, p. 7\]`, as pandoc writes a numeric citation) as the character itself, and the reference
 * list pandoc's citeproc writes (the fenced div `::: {#refs ...}`) blanked: its quoted titles are
 * no quotations of the draft. Every replacement keeps the length.
 */
export function markdownAsProse(md: string): string {
  let out = md.replace(/\\([[\]()@])/gu, (_m, c: string) => (c === "]" || c === ")" ? `${c} ` : ` ${c}`));
  const refs = /^:{3,}\s*\{#refs\b[^\n]*$/mu.exec(out);
  if (refs) {
    // To the fence closing it: fences with attributes open, bare ones close.
    const fence = /^:{3,}[^\S\n]*(\S?)[^\n]*$/gmu;
    fence.lastIndex = refs.index;
    let depth = 0;
    let end = out.length;
    for (let m = fence.exec(out); m; m = fence.exec(out)) {
      depth += m[1] === "" ? -1 : 1;
      if (depth === 0) {
        end = m.index + m[0].length;
        break;
      }
    }
    out = out.slice(0, refs.index) + out.slice(refs.index, end).replace(/[^\n]/gu, " ") + out.slice(end);
  }
  return out;
}

/** The offset of the brace closing the one at `open`, or -1 (none before a blank line). */
function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
    else if (c === "\n" && text[i + 1] === "\n") return -1;
  }
  return -1;
}

function findCitationGroups(text: string, kind: DraftKind, spans: QuotedSpan[]): CitationGroup[] {
  let taken: CitationGroup[] = [];
  const inQuote = sortedRanges(spans.map((s) => [s.startUtf16 + 1, s.endUtf16 - 1]));
  // `$[0, 1]$` is an interval, `$f(2020)$` no year: nothing inside inline math is a citation.
  const inMath = sortedRanges(
    [...text.matchAll(/(?<![\\$])\$(?!\$)[^$\n]{1,500}\$/gu)].map((m) => [
      m.index ?? 0,
      (m.index ?? 0) + m[0].length,
    ]),
  );
  const readers = [
    latexCitations,
    pandocCitations,
    kind === "latex" ? latexNumericCitations : numericCitations,
    authorYear,
  ];
  for (const read of readers) {
    // Taken groups never overlap: sorted by start, their ends are sorted too.
    const starts = taken.map((t) => t.startUtf16);
    const overlaps = (g: CitationGroup) => {
      const i = search(starts, g.endUtf16 - 1);
      return i >= 0 && taken[i].endUtf16 > g.startUtf16;
    };
    const found = read(text).filter((g) => !inQuote(g.startUtf16) && !inMath(g.startUtf16) && !overlaps(g));
    taken = [...taken, ...found].sort((a, b) => a.startUtf16 - b.startUtf16);
  }
  return taken;
}

/** Whether an offset lies in one of the ranges (sorted by start, not overlapping). */
function sortedRanges(ranges: [number, number][]): (at: number) => boolean {
  const starts = ranges.map((r) => r[0]);
  return (at) => {
    const i = search(starts, at);
    return i >= 0 && at < ranges[i][1];
  };
}

const LATEX_COMMANDS = new Set(
  [
    "cite",
    "citep",
    "citet",
    "citealp",
    "citealt",
    "parencite",
    "textcite",
    "autocite",
    "footcite",
    "footcitetext",
    "smartcite",
    "supercite",
    "cites",
    "parencites",
    "textcites",
    "autocites",
    "footcites",
    "smartcites",
  ].flatMap((c) => [c, c[0].toUpperCase() + c.slice(1)]),
);

const LATEX_CITE = /\\([A-Za-z]*cite[A-Za-z]*)\*?/gu;
const OPTIONAL_ARG = /^\s*\[([^[\]]*)\]/u;
const MANDATORY_ARG = /^\s*\{([^{}]*)\}/u;

/** `\cite[pre][post]{a,b}`, and biblatex's multicites `\cites[pre][post]{a}[post]{b}`. */
function latexCitations(text: string): CitationGroup[] {
  const groups: CitationGroup[] = [];
  for (const m of text.matchAll(LATEX_CITE)) {
    if (!LATEX_COMMANDS.has(m[1])) continue;
    const start = m.index ?? 0;
    let at = start + m[0].length;
    const multi = m[1].endsWith("s");
    // Multicites may open with (pre)(post) notes for the whole list.
    if (multi) at += text.slice(at).match(/^(?:\s*\([^()]*\)){0,2}/u)?.[0].length ?? 0;
    const refs: CitedRef[] = [];
    for (;;) {
      const notes: string[] = [];
      let rest = text.slice(at, at + 4096);
      let opt = rest.match(OPTIONAL_ARG);
      while (opt && notes.length < 2) {
        notes.push(opt[1]);
        at += opt[0].length;
        rest = text.slice(at, at + 4096);
        opt = rest.match(OPTIONAL_ARG);
      }
      const keys = text.slice(at).match(MANDATORY_ARG);
      if (!keys) break;
      at += keys[0].length;
      const names = keys[1]
        .split(",")
        .map((k) => k.trim())
        .filter((k) => k !== "");
      // One optional argument is the postnote; with two, the second is.
      const post = notes.length === 2 ? notes[1] : notes[0];
      names.forEach((key, i) => {
        refs.push(withNote({ work: { by: "key", key }, key }, i === names.length - 1 ? post : undefined));
      });
      if (!multi) break;
    }
    if (refs.length > 0) groups.push(group("latex", refs, text, start, at));
  }
  return groups;
}

/** The ref with the locator its note names, or the note kept as written when it names none. */
function withNote(ref: CitedRef, note: string | undefined): CitedRef {
  const cleaned = note?.replace(/^\s*,/u, "").trim();
  if (!cleaned) return ref;
  const locator = readLocator(cleaned);
  return locator ? { ...ref, locator } : { ...ref, note: cleaned };
}

function group(
  style: CitationStyle,
  refs: CitedRef[],
  text: string,
  start: number,
  end: number,
): CitationGroup {
  return {
    style,
    refs,
    written: text.slice(start, end).replace(/\s+/gu, " "),
    startUtf16: start,
    endUtf16: end,
  };
}

// A pandoc key: a letter, digit or _, then those and internal punctuation; or any text in braces.
const KEY = "(?:\\{[^{}\\n]+\\}|[\\p{L}\\p{N}_](?:[\\p{L}\\p{N}_]|[:.#$%&\\-+?<>~/](?=[\\p{L}\\p{N}_]))*)";
const BRACKETED = /\[([^[\]]*)\]/gu;
const KEY_IN_PART = new RegExp(`(?:^|[\\s(])(-?)@(${KEY})`, "u");
const IN_TEXT = new RegExp(`(?<![\\p{L}\\p{N}_@\\[\\\\])@(${KEY})(?:[^\\S\\n]*\\[([^[\\]@\\n]*)\\])?`, "gu");

function bareKey(key: string): string {
  return key.startsWith("{") ? key.slice(1, -1) : key;
}

/** `[see @a, p. 7; -@b]` and the in-text `@a [p. 7]`. */
function pandocCitations(text: string): CitationGroup[] {
  const groups: CitationGroup[] = [];
  const brackets: [number, number][] = [];
  for (const m of text.matchAll(BRACKETED)) {
    const start = m.index ?? 0;
    if (!m[1].includes("@") || /\n\s*\n/u.test(m[1])) continue;
    const refs: CitedRef[] = [];
    for (const part of m[1].split(";")) {
      const k = part.match(KEY_IN_PART);
      if (!k) continue;
      const key = bareKey(k[2]);
      const suffix = part.slice((k.index ?? 0) + k[0].length);
      refs.push(withNote({ work: { by: "key", key }, key }, suffix));
    }
    if (refs.length === 0) continue;
    groups.push(group("pandoc", refs, text, start, start + m[0].length));
    brackets.push([start, start + m[0].length]);
  }
  const inBracket = sortedRanges(brackets);
  for (const m of text.matchAll(IN_TEXT)) {
    const start = m.index ?? 0;
    if (inBracket(start)) continue;
    const key = bareKey(m[1]);
    groups.push(
      group("pandoc", [withNote({ work: { by: "key", key }, key }, m[2])], text, start, start + m[0].length),
    );
  }
  return groups;
}

/** `[3]`, and with a prenote as citation styles write one: `[see 3, p. 7]`, `[cf. 3]`. */
const NUMERIC = /(?<![\]\p{L}\p{N}^])\[\s*(?:(?:see|cf\.|e\.g\.,?|also|compare)\s+)*(\d[^[\]\n]{0,200})\]/gu;
const MAX_RANGE = 100;

/**
 * In LaTeX, brackets a citation style printed (`{[}3, p.~7{]}`, as pandoc's citeproc writes them):
 * a bare `[...]` there is an optional argument.
 */
const LATEX_NUMERIC = /\{\[\}\s*(?:(?:see|cf\.|e\.g\.,?|also|compare)\s+)*(\d[^[\]{}\n]{0,200})\{\]\}/gu;

function latexNumericCitations(text: string): CitationGroup[] {
  return numericCitations(text, LATEX_NUMERIC);
}

/** `[3]`, `[3, 5-7]`, `[3, p. 7]`: numbers and ranges, then the last one's locator. */
function numericCitations(text: string, form: RegExp = NUMERIC): CitationGroup[] {
  const groups: CitationGroup[] = [];
  for (const m of text.matchAll(form)) {
    if (text[(m.index ?? 0) + m[0].length] === "(") continue; // a Markdown link
    const parts = m[1].split(/[,;]/u).map((p) => p.trim());
    const numbers: number[] = [];
    let i = 0;
    for (; i < parts.length; i++) {
      const one = parts[i].match(/^(\d{1,6})$/u);
      const span = parts[i].match(/^(\d{1,6})\s*(?:-{1,2}|[\u2010-\u2015])\s*(\d{1,6})$/u);
      if (one) numbers.push(Number(one[1]));
      else if (span && Number(span[2]) > Number(span[1]) && Number(span[2]) - Number(span[1]) <= MAX_RANGE) {
        for (let n = Number(span[1]); n <= Number(span[2]); n++) numbers.push(n);
      } else break;
    }
    if (numbers.length === 0 || numbers.includes(0)) continue;
    const note = parts.slice(i).join(", ");
    if (note !== "" && !readLocator(note)) continue; // `[1, 2.5]` is an interval, not a citation
    const refs = numbers.map((n, j) =>
      withNote(
        { work: { by: "number", number: n }, key: `[${n}]` },
        j === numbers.length - 1 ? note : undefined,
      ),
    );
    const start = m.index ?? 0;
    groups.push(group("numeric", refs, text, start, start + m[0].length));
  }
  return groups;
}

const PARTICLE = "(?:(?:van|von|der|den|de|du|da|di|del|della|des|dos|la|le|ter|ten|zu|al|el)\\s+)";
const NAME = `${PARTICLE}*\\p{Lu}[\\p{L}\\p{M}'\u2019]*(?:-\\p{Lu}[\\p{L}\\p{M}'\u2019]*)*`;
// `A, B, and C` (a serial comma before the last), `A, B & C`, `A and B`.
const NAMES = `${NAME}(?:\\s*(?:,\\s*(?:&|\\band\\b)?|&|\\band\\b)\\s*${NAME})*(?:,?\\s+et\\s+al\\.?)?`;
const YEAR = "(\\d{4})([a-z])?";
const PAREN_PART = new RegExp(
  `^(?:(?!${PARTICLE})[\\p{Ll}][\\p{Ll}.]*,?\\s+)*(${NAMES}),?\\s+${YEAR}(?:\\s*,\\s*(.+))?$`,
  "u",
);
const PARENTHETICAL = /\(([^()\n]{4,400})\)/gu;
const NARRATIVE = new RegExp(`(${NAMES})\\s+\\(${YEAR}(?:\\s*,\\s*([^()\\n]{1,100}))?\\)`, "gu");

function authorYearRef(
  names: string,
  year: string,
  suffix: string | undefined,
  note: string | undefined,
  narrative: boolean,
): CitedRef {
  const etAl = /\bet\s+al\.?$/u.test(names);
  const list = names
    .replace(/,?\s+et\s+al\.?$/u, "")
    .split(/\s*(?:,|&|\band\b)\s*/u)
    .map((n) => n.trim())
    .filter((n) => n !== "");
  const key = `${list.join(" & ")}${etAl ? " et al." : ""} ${year}${suffix ?? ""}`;
  return withNote(
    { work: { by: "author-year", names: list, etAl, year, suffix: suffix ?? "", narrative }, key },
    note,
  );
}

/** `(Smith 2024, p. 7; Jones & Li 2023a)` and `Smith et al. (2024, p. 7)`. */
function authorYear(text: string): CitationGroup[] {
  const groups: CitationGroup[] = [];
  for (const m of text.matchAll(PARENTHETICAL)) {
    const refs: CitedRef[] = [];
    for (const part of m[1].split(";")) {
      const p = part.trim().match(PAREN_PART);
      if (p) refs.push(authorYearRef(p[1], p[2], p[3], p[4], false));
    }
    const start = m.index ?? 0;
    if (refs.length > 0) groups.push(group("author-year", refs, text, start, start + m[0].length));
  }
  for (const m of text.matchAll(NARRATIVE)) {
    const start = m.index ?? 0;
    const ref = authorYearRef(m[1], m[2], m[3], m[4], true);
    groups.push(group("author-year", [ref], text, start, start + m[0].length));
  }
  return groups;
}

/** 1-based line and column (UTF-16) of an offset. */
function placeIndex(text: string): (at: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (at) => {
    const i = Math.max(0, search(starts, at));
    return { line: i + 1, column: at - starts[i] + 1 };
  };
}
