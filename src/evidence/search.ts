/**
 * Finding where a snapshot says something, to help a reader choose span offsets: exact matches on
 * the folded view of the text first; when there are none, a scored approximate fallback (the
 * stretches of text that hold the most of the query's words, closest together). Every hit carries
 * offsets into the original text, in code points, and a window around it.
 */
import { CiteproofError } from "../errors.js";
import { fold } from "../text/fold.js";
import type { CodePointIndex } from "../util/codepoints.js";

export interface SpanHit {
  /** The match itself, code points into the snapshot text, end exclusive. */
  start: number;
  end: number;
  /** The window shown around it. */
  window_start: number;
  window_end: number;
  window: string;
  method: "exact" | "approximate";
  /** 1 for an exact match; the share of the query's distinct words present, for an approximate one. */
  score: number;
}

export interface SpanSearch {
  query: string;
  method: "exact" | "approximate" | "none";
  /** Exact matches found in all (hits holds at most maxHits of them). */
  total: number;
  hits: SpanHit[];
}

export interface SearchOptions {
  /** Code points shown on each side of a hit. */
  contextCodePoints?: number;
  maxHits?: number;
  /** Lowest approximate score reported. */
  minScore?: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

export function searchSpans(index: CodePointIndex, query: string, options: SearchOptions = {}): SpanSearch {
  const context = options.contextCodePoints ?? 250;
  const maxHits = options.maxHits ?? 8;
  const minScore = options.minScore ?? 0.5;
  const q = fold(query, { trim: true }).text;
  if (q.length === 0) throw new CiteproofError("USAGE", "the query is empty once whitespace is folded");
  const folded = fold(index.text);

  const exact: SpanHit[] = [];
  let total = 0;
  for (let at = folded.text.indexOf(q); at >= 0; at = folded.text.indexOf(q, at + 1)) {
    total++;
    if (exact.length < maxHits) {
      const start = index.toCodePoints(folded.startUtf16[at]);
      const end = index.toCodePoints(folded.endUtf16[at + q.length - 1]);
      exact.push(hit(index, start, end, context, "exact", 1));
    }
  }
  if (exact.length > 0) return { query, method: "exact", total, hits: exact };

  const wanted = new Map<string, number>();
  for (const m of q.matchAll(WORD)) if (!wanted.has(m[0])) wanted.set(m[0], wanted.size);
  if (wanted.size === 0) return { query, method: "none", total: 0, hits: [] };
  const tokens: { id: number; from: number; to: number }[] = [];
  let queryWords = 0;
  for (const m of q.matchAll(WORD)) if (m[0]) queryWords++;
  for (const m of folded.text.matchAll(WORD)) {
    tokens.push({ id: wanted.get(m[0]) ?? -1, from: m.index!, to: m.index! + m[0].length });
  }
  const width = Math.max(queryWords * 2, queryWords + 4);
  const counts = new Int32Array(wanted.size);
  let present = 0;
  const candidates: { score: number; first: number; last: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const add = tokens[i].id;
    if (add >= 0 && counts[add]++ === 0) present++;
    const drop = i - width;
    if (drop >= 0) {
      const id = tokens[drop].id;
      if (id >= 0 && --counts[id] === 0) present--;
    }
    if (add < 0 || present === 0) continue;
    const score = present / wanted.size;
    if (score < minScore) continue;
    // The window ends at a query word; start it at its first query word.
    let first = Math.max(0, i - width + 1);
    while (tokens[first].id < 0) first++;
    candidates.push({ score, first, last: i });
  }
  candidates.sort((a, b) => b.score - a.score || a.last - a.first - (b.last - b.first) || a.first - b.first);
  const chosen: { score: number; first: number; last: number }[] = [];
  for (const c of candidates) {
    if (chosen.length >= maxHits) break;
    if (chosen.some((d) => c.first <= d.last && d.first <= c.last)) continue;
    chosen.push(c);
  }
  const hits = chosen.map((c) => {
    const start = index.toCodePoints(folded.startUtf16[tokens[c.first].from]);
    const end = index.toCodePoints(folded.endUtf16[tokens[c.last].to - 1]);
    return hit(index, start, end, context, "approximate", Math.round(c.score * 1000) / 1000);
  });
  return { query, method: hits.length > 0 ? "approximate" : "none", total: 0, hits };
}

function hit(
  index: CodePointIndex,
  start: number,
  end: number,
  context: number,
  method: SpanHit["method"],
  score: number,
): SpanHit {
  const windowStart = Math.max(0, start - context);
  const windowEnd = Math.min(index.length, end + context);
  return {
    start,
    end,
    window_start: windowStart,
    window_end: windowEnd,
    window: index.slice(windowStart, windowEnd),
    method,
    score,
  };
}
