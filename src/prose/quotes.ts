/**
 * Quoted spans in a draft: text between quotation marks as the languages set them (Unicode's
 * quotation punctuation): straight ("…"), English (“…”), German and Polish („…“ „…” ‚…‘ »…«), French
 * and Russian («…» ‹…›), Swedish (”…”), Chinese and Japanese (「…」 『…』). Each opening mark closes only
 * on its own closing marks. English single quotes are not read: they are apostrophes too. A span never
 * crosses a blank line, so one stray quote mark cannot swallow the paragraphs after it.
 */

/** The floors a quoted span must meet to count as a quotation, in characters (code points). */
export const MIN_QUOTATION_CHARS = 12;
export const MAX_QUOTATION_CHARS = 400;

export const QUOTE_STATUSES = ["counted", "too-short", "too-long"] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const QUOTE_STATUS_MEANINGS: Record<QuoteStatus, string> = {
  counted: `between ${MIN_QUOTATION_CHARS} and ${MAX_QUOTATION_CHARS} characters: read as a quotation`,
  "too-short": `under ${MIN_QUOTATION_CHARS} characters: dropped, since so short a phrase can match by accident`,
  "too-long": `over ${MAX_QUOTATION_CHARS} characters: dropped as a pasted passage`,
};

export interface QuotedSpan {
  /** The quoted words, whitespace runs collapsed to one space and trimmed. */
  text: string;
  /** Offsets of the opening and closing quote marks in the draft (the span includes both). */
  startUtf16: number;
  endUtf16: number;
  /** Length of `text` in code points. */
  chars: number;
  status: QuoteStatus;
}

/** Each opening mark and the marks that close it. */
const CLOSING_FOR: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ["\u201c", "\u201d"], // “ ”
  ["\u201e", "\u201c\u201d"], // „ “ and „ ”
  ["\u201a", "\u2018\u2019"], // ‚ ‘ and ‚ ’
  ["\u00ab", "\u00bb"], // « »
  ["\u00bb", "\u00ab"], // » «
  ["\u2039", "\u203a"], // ‹ ›
  ["\u203a", "\u2039"], // › ‹
  ["\u201d", "\u201d"], // ” ”
  ["\u300c", "\u300d"], // 「 」
  ["\u300e", "\u300f"], // 『 』
]);

export function findQuotedSpans(draft: string): QuotedSpan[] {
  const spans: QuotedSpan[] = [];
  let open = -1;
  let closing = "";
  for (let i = 0; i < draft.length; i++) {
    const c = draft[i];
    if (open < 0) {
      const closers = CLOSING_FOR.get(c);
      if (closers !== undefined) {
        open = i;
        closing = closers;
      }
      continue;
    }
    if (c === "\n" && isBlankLineAfter(draft, i)) {
      // A paragraph ends inside the span: the opening mark was a stray one.
      open = -1;
      continue;
    }
    if (closing.includes(c)) {
      spans.push(makeSpan(draft, open, i + 1));
      open = -1;
    }
  }
  return spans;
}

function makeSpan(draft: string, start: number, end: number): QuotedSpan {
  const text = draft
    .slice(start + 1, end - 1)
    .replace(/\s+/gu, " ")
    .trim();
  const chars = [...text].length;
  const status: QuoteStatus =
    chars < MIN_QUOTATION_CHARS ? "too-short" : chars > MAX_QUOTATION_CHARS ? "too-long" : "counted";
  return { text, startUtf16: start, endUtf16: end, chars, status };
}

/** True when the line after the newline at `at` holds only whitespace: a paragraph break. */
export function isBlankLineAfter(draft: string, at: number): boolean {
  for (let i = at + 1; i < draft.length; i++) {
    const c = draft[i];
    if (c === "\n") return true;
    if (c !== " " && c !== "\t" && c !== "\r") return false;
  }
  return true;
}
