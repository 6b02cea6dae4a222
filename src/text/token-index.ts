/**
 * Which pages may hold a quotation: for every page, the sorted 32-bit hashes of its folded words
 * and of its pairs of adjacent words. A quotation is looked for only on the pages that hold every
 * one of its adjacent word pairs (or its one word), instead of scanning the whole document. Built
 * from the folded views a match is made against (both hyphen readings, whole text and body flow),
 * so it never rules out a page the full search would accept; a hash collision only lets a page
 * through that the full search then rejects. Compact (4 bytes a key) and usable as loaded.
 */

export interface SerializedTokenIndex {
  version: number;
  pageCount: number;
  /** Keys of page p (1-based) are keys[offsets[p - 1] .. offsets[p]), sorted ascending. */
  offsets: Int32Array;
  keys: Uint32Array;
}

export const TOKEN_INDEX_VERSION = 4;

const TOKEN = /[\p{L}\p{N}]+/gu;

/** The letter-and-digit runs of a folded text. */
export function tokensOf(folded: string): string[] {
  return folded.match(TOKEN) ?? [];
}

function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return h >>> 0;
}

function hashPair(first: number, second: number): number {
  let h = Math.imul(first ^ 0x9e3779b9, 0x85ebca6b) ^ second;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The keys a text must hold: its adjacent word pairs, or its one word. A needle found on a page on
 * word boundaries has all its pairs among the page's pairs, since words are maximal runs.
 */
function keysOf(folded: string): number[] {
  const words = tokensOf(folded).map(hashWord);
  if (words.length < 2) return words;
  const keys: number[] = [];
  for (let k = 1; k < words.length; k++) keys.push(hashPair(words[k - 1], words[k]));
  return keys;
}

export class TokenIndex {
  constructor(readonly serialized: SerializedTokenIndex) {}

  static build(pageCount: number, foldedTextsOfPage: (page: number) => string[]): TokenIndex {
    const perPage: Uint32Array[] = [];
    let total = 0;
    for (let page = 1; page <= pageCount; page++) {
      const keys: number[] = [];
      for (const text of foldedTextsOfPage(page)) {
        let previous = -1;
        for (const word of tokensOf(text)) {
          const h = hashWord(word);
          keys.push(h);
          if (previous >= 0) keys.push(hashPair(previous, h));
          previous = h;
        }
      }
      const sorted = Uint32Array.from(keys).sort();
      let unique = 0;
      for (let k = 0; k < sorted.length; k++)
        if (k === 0 || sorted[k] !== sorted[k - 1]) sorted[unique++] = sorted[k];
      perPage.push(sorted.subarray(0, unique));
      total += unique;
    }
    const offsets = new Int32Array(pageCount + 1);
    const keys = new Uint32Array(total);
    let at = 0;
    for (let p = 0; p < pageCount; p++) {
      offsets[p] = at;
      keys.set(perPage[p], at);
      at += perPage[p].length;
    }
    offsets[pageCount] = at;
    return new TokenIndex({ version: TOKEN_INDEX_VERSION, pageCount, offsets, keys });
  }

  /**
   * Pages that hold every adjacent word pair (or the one word) of the folded needle, in page order;
   * undefined when the needle has no word (then every page is a candidate).
   */
  candidates(needle: string): number[] | undefined {
    const keys = keysOf(needle);
    if (keys.length === 0) return undefined;
    const pages: number[] = [];
    for (let page = 1; page <= this.serialized.pageCount; page++) {
      if (this.holdsAll(page, keys)) pages.push(page);
    }
    return pages;
  }

  has(page: number, needle: string): boolean {
    return this.holdsAll(page, keysOf(needle));
  }

  private holdsAll(page: number, wanted: number[]): boolean {
    const { offsets, keys } = this.serialized;
    const from = offsets[page - 1];
    const to = offsets[page];
    for (const key of wanted) {
      let lo = from;
      let hi = to - 1;
      let found = false;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const v = keys[mid];
        if (v === key) {
          found = true;
          break;
        }
        if (v < key) lo = mid + 1;
        else hi = mid - 1;
      }
      if (!found) return false;
    }
    return true;
  }
}
