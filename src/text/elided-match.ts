/**
 * Finding a quotation's parts in order in one folded text: the chain of occurrences (each on word
 * boundaries, each starting after the one before ends) that spans the least. Gaps are measured in
 * UTF-16 units of the original text between one part's end and the next part's start.
 */
import type { FoldedText } from "./fold.js";
import { onWordBoundaries } from "./folded-pages.js";

export interface ElidedChain {
  /** Original UTF-16 range of each part, in order. */
  parts: { startUtf16: number; endUtf16: number }[];
  /** The widest gap between two consecutive parts, in original UTF-16 units. */
  widestGap: number;
}

/** Occurrences per part beyond which a part is too common to chain from every one. */
const MAX_OCCURRENCES = 2000;

export function findElided(view: FoldedText, needles: readonly string[]): ElidedChain | undefined {
  if (needles.length === 0 || needles.some((n) => n.length === 0)) return undefined;
  const occurrences = needles.map((needle) => occurrencesOf(view.text, needle));
  if (occurrences.some((list) => list.length === 0)) return undefined;
  let best: { chain: number[]; span: number } | undefined;
  for (const first of occurrences[0]) {
    const chain = [first];
    let end = first + needles[0].length;
    for (let k = 1; k < needles.length; k++) {
      const next = firstAtOrAfter(occurrences[k], end);
      if (next === undefined) break;
      chain.push(next);
      end = next + needles[k].length;
    }
    if (chain.length < needles.length) break;
    const span = end - first;
    if (!best || span < best.span) best = { chain, span };
  }
  if (!best) return undefined;
  const parts = best.chain.map((at, k) => ({
    startUtf16: view.startUtf16[at],
    endUtf16: view.endUtf16[at + needles[k].length - 1],
  }));
  let widestGap = 0;
  for (let k = 1; k < parts.length; k++)
    widestGap = Math.max(widestGap, parts[k].startUtf16 - parts[k - 1].endUtf16);
  return { parts, widestGap };
}

/** findElided on the folded view of a stretch of a text, the offsets moved by `shift` to the whole text's. */
export function elidedIn(
  view: FoldedText,
  needles: readonly string[],
  shift: number,
): ElidedChain | undefined {
  const chain = findElided(view, needles);
  if (!chain) return undefined;
  const parts = chain.parts.map((p) => ({ startUtf16: p.startUtf16 + shift, endUtf16: p.endUtf16 + shift }));
  return { parts, widestGap: chain.widestGap };
}

function occurrencesOf(text: string, needle: string): number[] {
  const out: number[] = [];
  for (
    let at = text.indexOf(needle);
    at >= 0 && out.length < MAX_OCCURRENCES;
    at = text.indexOf(needle, at + 1)
  )
    if (onWordBoundaries(text, at, needle)) out.push(at);
  return out;
}

function firstAtOrAfter(sorted: number[], value: number): number | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo];
}
