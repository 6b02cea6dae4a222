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
  const p = wordsOf(page);
  const m = p.words.length;
  if (m === 0) return undefined;
  const starts = likelyStarts(q.words, p.words);
  if (starts.length === 0) return undefined;
  const slack = Math.max(3, Math.ceil(n * 0.25));
  let best: { from: number; alignment: Alignment } | undefined;
  for (const start of starts) {
    const from = Math.max(0, start - slack);
    const to = Math.min(m, start + n + slack);
    const alignment = alignWithin(n, to - from, (i, j) => sameWord(q.words, i, p.words[from + j]));
    if (
      !best ||
      alignment.same > best.alignment.same ||
      (alignment.same === best.alignment.same && alignment.edits < best.alignment.edits)
    )
      best = { from, alignment };
  }
  if (!best || best.alignment.same === 0) return undefined;
  const { from, alignment } = best;
  const onPage = alignment.ops.flatMap((op) => ("b" in op ? [op.b + from] : []));
  const first = onPage[0];
  const last = onPage[onPage.length - 1];
  const startUtf16 = p.start[first];
  const endUtf16 = p.end[last];
  const similarity = alignment.same / n;
  const show = (text: string, start: number[], end: number[]) => (a: number, b: number) =>
    text.slice(start[a], end[b - 1]).replace(/\s+/g, " ");
  const differences =
    similarity >= MIN_SIMILARITY_FOR_DIFFERENCES
      ? differencesOf(alignment, show(quoted, q.start, q.end), (a, b) =>
          show(original, p.start, p.end)(a + from, b + from),
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
 * Where on the page the quotation most likely starts: every page word equal to quotation word j at
 * page position i votes for start i - j with weight 1/(occurrences of that word on the page); a
 * start's score is its votes and those of starts near it (a dropped or added word shifts the rest).
 */
function likelyStarts(quotation: string[], page: string[]): number[] {
  const wanted = new Set(quotation);
  const positions = new Map<string, number[]>();
  page.forEach((word, i) => {
    if (!wanted.has(word)) return;
    const list = positions.get(word);
    if (list) list.push(i);
    else positions.set(word, [i]);
  });
  const votes = new Map<number, number>();
  quotation.forEach((word, j) => {
    const at = positions.get(word);
    if (!at) return;
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

/**
 * Whether quotation word i is the page's word. The quotation's first word may end a page word and its
 * last word begin one, where what is cut off is not a letter or digit: "(the" holds "the", "form." holds
 * "form", as a match on the page would find them.
 */
function sameWord(quotation: string[], i: number, word: string): boolean {
  const w = quotation[i];
  if (w === word) return true;
  if (i === 0 && word.endsWith(w) && !WORD_CHAR.test(word[word.length - w.length - 1])) return true;
  if (i === quotation.length - 1 && word.startsWith(w) && !WORD_CHAR.test(word[w.length])) return true;
  return false;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
