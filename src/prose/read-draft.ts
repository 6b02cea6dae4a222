/**
 * Reading a draft: its citations in the six forms, each page citation with the quotations its own
 * sentence gives it, the quotations whose sentence names no page, and the look-alike forms that
 * are not read. Citation forms inside a quoted span are the quoted source's words, not citations.
 */
import {
  type CitationForm,
  findCitationForms,
  findUnsupportedForms,
  type ProseAnchor,
} from "./citation-forms.js";
import { findQuotedSpans, type QuotedSpan } from "./quotes.js";
import { type Sentence, splitSentences } from "./sentences.js";

export const PROSE_CITATION_KINDS = ["quotation", "page", "equation", "figure", "unanchored"] as const;
export type ProseCitationKind = (typeof PROSE_CITATION_KINDS)[number];

export interface ProseCitation {
  /**
   * quotation: a page with a quotation from its sentence; page: a page with none; equation, figure:
   * a label; unanchored: a quotation whose sentence names no page.
   */
  kind: ProseCitationKind;
  /** Undefined for an unanchored quotation. */
  anchor?: ProseAnchor;
  /** The citation form as written; undefined for an unanchored quotation. */
  written?: string;
  quote?: QuotedSpan;
  /** Where the citation form (or, when unanchored, the quotation) starts in the draft. */
  startUtf16: number;
  /** 1-based line of the draft where it starts. */
  line: number;
  /** 0-based index of its sentence. */
  sentence: number;
}

export interface DraftReading {
  /** In order of the draft: quotations, bare pages, equations and figures, unanchored quotations. */
  citations: ProseCitation[];
  unsupported: { written: string; startUtf16: number; line: number }[];
  /** Quoted spans dropped by the floors (under 12 or over 400 characters). */
  droppedQuotes: (QuotedSpan & { line: number })[];
  sentences: number;
}

export function readDraft(draft: string): DraftReading {
  const spans = findQuotedSpans(draft);
  const inSpan = (at: number) => spans.some((s) => at > s.startUtf16 && at < s.endUtf16 - 1);
  const forms = findCitationForms(draft).filter((f) => !inSpan(f.startUtf16));
  const unsupported = findUnsupportedForms(draft, [...forms, ...spans]);
  const sentences = splitSentences(draft, spans);
  const lineAt = lineIndex(draft);
  const sentenceOf = sentenceIndex(sentences);

  const citations: ProseCitation[] = [];
  const quotesByForm = new Map<CitationForm, QuotedSpan[]>();
  const unanchored: QuotedSpan[] = [];
  for (const span of spans) {
    if (span.status !== "counted") continue;
    const sentence = sentenceOf(span.startUtf16);
    const pages = forms.filter((f) => f.anchor.kind === "page" && sentenceOf(f.startUtf16) === sentence);
    const owner = pageRightAfter(draft, forms, span) ?? nearestPage(pages, span);
    if (!owner) {
      unanchored.push(span);
      continue;
    }
    const list = quotesByForm.get(owner) ?? [];
    list.push(span);
    quotesByForm.set(owner, list);
  }
  const cite = (kind: ProseCitationKind, form: CitationForm, quote?: QuotedSpan): ProseCitation => ({
    kind,
    anchor: form.anchor,
    written: form.written,
    ...(quote ? { quote } : {}),
    startUtf16: form.startUtf16,
    line: lineAt(form.startUtf16),
    sentence: sentenceOf(form.startUtf16),
  });
  for (const form of forms) {
    for (const quote of quotesByForm.get(form) ?? []) citations.push(cite("quotation", form, quote));
  }
  for (const form of forms) {
    if (form.anchor.kind === "page" && !quotesByForm.has(form)) citations.push(cite("page", form));
  }
  for (const kind of ["equation", "figure"] as const) {
    for (const form of forms) if (form.anchor.kind === kind) citations.push(cite(kind, form));
  }
  for (const quote of unanchored) {
    citations.push({
      kind: "unanchored",
      quote,
      startUtf16: quote.startUtf16,
      line: lineAt(quote.startUtf16),
      sentence: sentenceOf(quote.startUtf16),
    });
  }
  return {
    citations,
    unsupported: unsupported.map((u) => ({
      written: u.written,
      startUtf16: u.startUtf16,
      line: lineAt(u.startUtf16),
    })),
    droppedQuotes: spans
      .filter((s) => s.status !== "counted")
      .map((s) => ({ ...s, line: lineAt(s.startUtf16) })),
    sentences: sentences.length,
  };
}

/**
 * A page citation written right after the closing quote (`"…." (p. 1).`, `"…" (p. 1)`, `"…," p. 1
 * notes`): it belongs to that quotation even where the quotation's own period ended the sentence.
 */
function pageRightAfter(draft: string, forms: CitationForm[], span: QuotedSpan): CitationForm | undefined {
  const next = forms.find((f) => f.startUtf16 >= span.endUtf16);
  if (next?.anchor.kind !== "page") return undefined;
  return BETWEEN_QUOTE_AND_PAGE.test(draft.slice(span.endUtf16, next.startUtf16)) ? next : undefined;
}

/** What may stand between a closing quote and its page: spaces (no blank line), a comma, a parenthesis. */
const BETWEEN_QUOTE_AND_PAGE = /^[^\S\n]*,?[^\S\n]*\n?[^\S\n]*\(?[^\S\n]*$/u;

/** The page citation a quotation belongs to: the nearest one before it in its sentence, else after it. */
function nearestPage(pages: CitationForm[], span: QuotedSpan): CitationForm | undefined {
  let before: CitationForm | undefined;
  for (const p of pages) if (p.startUtf16 < span.startUtf16) before = p;
  return before ?? pages.find((p) => p.startUtf16 > span.startUtf16);
}

/** 1-based line number of an offset, by binary search over line starts. */
function lineIndex(draft: string): (at: number) => number {
  const starts = [0];
  for (let i = draft.indexOf("\n"); i >= 0; i = draft.indexOf("\n", i + 1)) starts.push(i + 1);
  return (at) => search(starts, at) + 1;
}

/** 0-based sentence holding an offset (the one that starts at or before it). */
function sentenceIndex(sentences: Sentence[]): (at: number) => number {
  const starts = sentences.map((s) => s.startUtf16);
  return (at) => Math.max(0, search(starts, at));
}

/** Index of the last of the sorted `starts` at or before `at`, or -1. */
export function search(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  if (hi < 0 || at < starts[0]) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
