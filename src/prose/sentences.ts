/**
 * Sentence boundaries of a draft. A sentence ends at '.', '!' or '?' followed by whitespace and a
 * character that is not a lowercase letter, or at a blank line. It does not end after an
 * abbreviation a paper's prose uses (p., Eq., Fig., et al., e.g., i.e., ...), after an initial,
 * inside a number such as 3.2, or inside a quoted span.
 */
import { citationAbbreviations } from "./citation-words.js";
import { isBlankLineAfter } from "./quotes.js";

export interface Sentence {
  startUtf16: number;
  endUtf16: number;
}

/** Lowercased words that end with a period without ending a sentence (the period not included). */
export const ABBREVIATIONS: ReadonlySet<string> = new Set([
  "p",
  "pp",
  "eq",
  "eqs",
  "eqn",
  "eqns",
  "fig",
  "figs",
  "al",
  "e.g",
  "i.e",
  "cf",
  "vs",
  "viz",
  "resp",
  "approx",
  "ca",
  "sec",
  "secs",
  "ch",
  "chap",
  "vol",
  "no",
  "nos",
  "ref",
  "refs",
  "tab",
  "thm",
  "lem",
  "prop",
  "def",
  "app",
  "dr",
  "mr",
  "mrs",
  "ms",
  "prof",
  "st",
  // The abbreviations other languages cite with (S., pág., Gl., Abb., рис., ...).
  ...citationAbbreviations(),
]);

const FULL_WIDTH_TERMINATORS = new Set(["\u3002", "\uff01", "\uff1f"]);
const TERMINATORS = new Set([".", "!", "?", ...FULL_WIDTH_TERMINATORS]);
// Every language's closing quotation marks (quotes.ts), brackets and parentheses.
const CLOSERS = new Set([
  '"',
  "\u201d",
  "\u201c",
  "'",
  "\u2019",
  "\u2018",
  "\u00bb",
  "\u00ab",
  "\u203a",
  "\u2039",
  "\u300d",
  "\u300f",
  ")",
  "]",
  "\uff09",
]);
const WORD_CHAR = /[\p{L}\p{N}]/u;
const LOWERCASE = /\p{Ll}/u;

/** Splits the draft into sentences; `opaque` ranges (quoted spans) are never split. */
export function splitSentences(
  draft: string,
  opaque: readonly { startUtf16: number; endUtf16: number }[] = [],
): Sentence[] {
  const sentences: Sentence[] = [];
  const skipTo = new Map<number, number>();
  for (const range of opaque) skipTo.set(range.startUtf16, range.endUtf16);
  let start = 0;
  const cut = (end: number, next: number) => {
    if (draft.slice(start, end).trim().length > 0) sentences.push(trimmed(draft, start, end));
    start = next;
  };
  for (let i = 0; i < draft.length; i++) {
    const jump = skipTo.get(i);
    if (jump !== undefined) {
      // A quoted span that ends its own sentence ("... random.") may end the draft's sentence too.
      const inner = draft.slice(i + 1, jump - 1).trimEnd();
      i = jump - 1;
      if (TERMINATORS.has(inner[inner.length - 1]) && startsNewSentence(draft, jump)) cut(jump, jump);
      continue;
    }
    const c = draft[i];
    if (c === "\n" && isBlankLineAfter(draft, i)) {
      cut(i, i + 1);
      continue;
    }
    if (!TERMINATORS.has(c)) continue;
    if (c === "." && isAbbreviation(draft, i)) continue;
    let end = i + 1;
    while (end < draft.length && CLOSERS.has(draft[end]) && !skipTo.has(end)) end++;
    // Chinese and Japanese full stops end their sentence with no space after them.
    if (FULL_WIDTH_TERMINATORS.has(c) || startsNewSentence(draft, end)) {
      cut(end, end);
      i = end - 1;
    }
  }
  cut(draft.length, draft.length);
  return sentences;
}

/** True when the text at `at` is whitespace then a character that may begin a sentence, or the end. */
function startsNewSentence(draft: string, at: number): boolean {
  if (at >= draft.length) return true;
  if (!/\s/u.test(draft[at])) return false;
  let i = at;
  while (i < draft.length && /\s/u.test(draft[i])) i++;
  if (i >= draft.length) return true;
  return !LOWERCASE.test(draft[i]);
}

function isAbbreviation(draft: string, dot: number): boolean {
  // A period followed at once by a letter or digit (3.2, e.g, U.S) is inside a token.
  if (dot + 1 < draft.length && WORD_CHAR.test(draft[dot + 1])) return true;
  let begin = dot;
  while (begin > 0 && (WORD_CHAR.test(draft[begin - 1]) || draft[begin - 1] === ".")) begin--;
  const token = draft.slice(begin, dot).replace(/^\.+/, "");
  if (token.length === 0) return false;
  if (ABBREVIATIONS.has(token.toLowerCase())) return true;
  // An initial (J. Smith) or a dotted acronym (U.S.).
  return /^(\p{Lu}\.)*\p{Lu}$/u.test(token);
}

function trimmed(draft: string, start: number, end: number): Sentence {
  let s = start;
  let e = end;
  while (s < e && /\s/u.test(draft[s])) s++;
  while (e > s && /\s/u.test(draft[e - 1])) e--;
  return { startUtf16: s, endUtf16: e };
}
