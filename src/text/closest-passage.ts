/**
 * The passage of a page closest to a quotation that is not on it: the stretch of the page's words
 * that matches the whole quotation with the fewest word edits, and what differs, word by word.
 * Candidate stretches are where the quotation's words line up on the page (each word shared votes for
 * the place the quotation would start there, rare words weighing more), so the page is aligned only
 * at its few likeliest places.
 */
import type { FoldedText } from "./fold.js";
import { type Alignment, alignWithin, type Difference, differencesOf } from "./word-diff.js";

export interface ClosestPassage {
  /** The page's words of the passage, as printed (whitespace runs as one space). */
  text: string;
  /** UTF-16 offsets of the passage in the page text. */
  startUtf16: number;
  endUtf16: number;
  /** Share of the quotation's words the passage holds in order, 0..1. */
  similarity: number;
  /** What differs, in reading order; empty when too little is shared for the differences to mean anything. */
  differences: Difference[];
}

interface Words {
  words: string[];
  /** UTF-16 range in the original text of each word. */
  start: number[];
  end: number[];
}

/** The words of a folded text, each with its range in the original. */
export function wordsOf(folded: FoldedText): Words {
  const out: Words = { words: [], start: [], end: [] };
  const text = folded.text;
  let from = -1;
  for (let i = 0; i <= text.length; i++) {
    const space = i === text.length || text.charCodeAt(i) === 32;
    if (!space && from < 0) from = i;
    else if (space && from >= 0) {
      out.words.push(text.slice(from, i));
      out.start.push(folded.startUtf16[from]);
      out.end.push(folded.endUtf16[i - 1]);
      from = -1;
    }
  }
  return out;
}

/** Places tried per page; more only moves the answer when the quotation's words are all common. */
const CANDIDATES = 3;
/** Below this share of shared words the differences would be a rewrite, not a repair: not listed. */
const MIN_SIMILARITY_FOR_DIFFERENCES = 0.5;
const MAX_PASSAGE_CHARS = 400;

/**
 * `page` is the page's folded text (with its map to `original`), `quotation` the folded quotation
 * with its map to `quoted`.
 */
export function closestPassage(
  original: string,
  page: FoldedText,
  quoted: string,
  quotation: FoldedText,
): ClosestPassage | undefined {
  const q = wordsOf(quotation);
  const n = q.words.length;
  if (n === 0) return undefined;
  const p = pageWordsFor(page, q.words);
  const m = p.count;
  if (m === 0) return undefined;
  const starts = likelyStarts(p);
  if (starts.length === 0) return undefined;
  const slack = Math.max(3, Math.ceil(n * 0.25));
  const same = (i: number, j: number) => p.same(i, j);
  let best: { from: number; alignment: Alignment } | undefined;
  for (const start of starts) {
    const from = Math.max(0, start - slack);
    const to = Math.min(m, start + n + slack);
    const alignment = alignWithin(n, to - from, (i, j) => same(i, from + j));
    if (
      !best ||
      alignment.same > best.alignment.same ||
      (alignment.same === best.alignment.same && alignment.edits < best.alignment.edits)
    )
      best = { from, alignment };
  }
  if (!best || best.alignment.same === 0) return undefined;
  const { from, alignment } = best;
  const pageStart = (k: number) => page.startUtf16[p.start[k]];
  const pageEnd = (k: number) => page.endUtf16[p.end[k] - 1];
  const onPage = alignment.ops.flatMap((op) => ("b" in op ? [op.b + from] : []));
  const startUtf16 = pageStart(onPage[0]);
  const endUtf16 = pageEnd(onPage[onPage.length - 1]);
  const similarity = alignment.same / n;
  const differences =
    similarity >= MIN_SIMILARITY_FOR_DIFFERENCES
      ? differencesOf(
          alignment,
          (a, b) => quoted.slice(q.start[a], q.end[b - 1]).replace(/\s+/g, " "),
          (a, b) => original.slice(pageStart(a + from), pageEnd(b + from - 1)).replace(/\s+/g, " "),
        )
      : [];
  return {
    text: cut(original.slice(startUtf16, endUtf16).replace(/\s+/g, " ").trim(), MAX_PASSAGE_CHARS),
    startUtf16,
    endUtf16,
    similarity,
    differences,
  };
}

/**
 * The page's words as ranges of its folded text, and where the quotation's words stand on it (by word
 * number). The quotation's first word may also end a page word and its last word begin one, where what
 * is cut off is not a letter or digit: "(the" holds "the", "form." holds "form", as a match on the page
 * would find them. The quotation's words are searched for in the text, so the page's many other words
 * are never cut out of it; a word met more than MAX_PLACES times places nothing (its vote is nil), unless
 * every word of the quotation is that common.
 */
interface PageWords {
  count: number;
  /** Folded-text index range [start, end) of each page word. */
  start: Int32Array;
  end: Int32Array;
  /** Whether quotation word i is page word j (or, first and last, ends or begins it). */
  same(i: number, j: number): boolean;
  /** The number of each quotation word, and the page words that are each number, in page order. */
  quotationId: Int32Array;
  positions: number[][];
}

/**
 * A text's word ranges, found once per folded text, and where each word looked up stands, kept as
 * asked for: a document checked for many quotations is split once, and a word shared by several
 * absent quotations is searched for once. Both use the engine's own split and string search, not a
 * loop over every character: a one-shot check runs this code unoptimised.
 */
interface WordIndex {
  count: number;
  start: Int32Array;
  end: Int32Array;
  places: Map<string, number[]>;
}
const INDEXES = new WeakMap<FoldedText, WordIndex>();
/** Words looked up per text before the lookups start afresh (memory stays bounded). */
const MAX_WORDS_KEPT = 20_000;
/** Places kept of one word; a word met more often is too common to say where a quotation stands. */
const MAX_PLACES = 256;

function indexOf(folded: FoldedText): WordIndex {
  const known = INDEXES.get(folded);
  if (known) return known;
  const parts = folded.text.split(" ");
  const start = new Int32Array(parts.length);
  const end = new Int32Array(parts.length);
  let count = 0;
  let at = 0;
  for (const part of parts) {
    if (part.length > 0) {
      start[count] = at;
      end[count++] = at + part.length;
    }
    at += part.length + 1;
  }
  const index = { count, start, end, places: new Map<string, number[]>() };
  INDEXES.set(folded, index);
  return index;
}

function pageWordsFor(folded: FoldedText, quotation: string[]): PageWords {
  const text = folded.text;
  const { count, start, end, places } = indexOf(folded);
  const wordAt = (index: number) => {
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (start[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const isSpace = (index: number) => index < 0 || index >= text.length || text.charCodeAt(index) === 32;
  /** The word's places, at most `limit` + 1 of them (more than `limit`: too common to place). */
  const placesOf = (word: string, limit: number): number[] => {
    const key = `${limit}\u0000${word}`;
    const kept = places.get(key);
    if (kept) return kept;
    const at: number[] = [];
    for (let k = text.indexOf(word); k >= 0 && at.length <= limit; k = text.indexOf(word, k + 1))
      if (isSpace(k - 1) && isSpace(k + word.length)) at.push(wordAt(k));
    if (places.size >= MAX_WORDS_KEPT) places.clear();
    places.set(key, at);
    return at;
  };
  const numbers = new Map<string, number>();
  const quotationId = new Int32Array(quotation.length);
  const distinct: string[] = [];
  quotation.forEach((word, i) => {
    let number = numbers.get(word);
    if (number === undefined) {
      number = distinct.push(word) - 1;
      numbers.set(word, number);
    }
    quotationId[i] = number;
  });
  let positions = distinct.map((word) => placesOf(word, MAX_PLACES));
  if (positions.every((at) => at.length > MAX_PLACES))
    positions = distinct.map((word) => placesOf(word, Number.MAX_SAFE_INTEGER));
  else positions = positions.map((at) => (at.length > MAX_PLACES ? [] : at));
  const first = quotation[0];
  const last = quotation[quotation.length - 1];
  const same = (i: number, j: number): boolean => {
    const word = text.slice(start[j], end[j]);
    if (word === quotation[i]) return true;
    if (i === 0 && word.length > first.length && word.endsWith(first))
      return !WORD_CHAR.test(word[word.length - first.length - 1]);
    if (i === quotation.length - 1 && word.length > last.length && word.startsWith(last))
      return !WORD_CHAR.test(word[last.length]);
    return false;
  };
  return { count, start, end, same, quotationId, positions };
}

/**
 * Where on the page the quotation most likely starts: every page word equal to quotation word j at
 * page position i votes for start i - j with weight 1/(occurrences of that word on the page); a
 * start's score is its votes and those of starts near it (a dropped or added word shifts the rest).
 */
function likelyStarts(page: PageWords): number[] {
  const votes = new Map<number, number>();
  page.quotationId.forEach((number, j) => {
    const at = page.positions[number];
    if (at.length === 0) return;
    const weight = 1 / at.length;
    for (const i of at) votes.set(i - j, (votes.get(i - j) ?? 0) + weight);
  });
  const near = (start: number) => {
    let score = 0;
    for (let k = -3; k <= 3; k++) score += votes.get(start + k) ?? 0;
    return score;
  };
  const ranked = [...votes.keys()].map((start) => ({ start, score: near(start) }));
  ranked.sort((a, b) => b.score - a.score || a.start - b.start);
  const picked: number[] = [];
  for (const { start } of ranked) {
    if (picked.some((s) => Math.abs(s - start) <= 3)) continue;
    picked.push(start);
    if (picked.length === CANDIDATES) break;
  }
  return picked;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
