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

/** The stored index's format (its content is named by the token index's derivation key). */
export const TOKEN_INDEX_VERSION = 5;

const TOKEN = /[\p{L}\p{N}]+/gu;
const WORD_CODE_POINT = /^[\p{L}\p{N}]$/u;

/** The letter-and-digit runs of a folded text. */
export function tokensOf(folded: string): string[] {
  return folded.match(TOKEN) ?? [];
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 16777619;

function hashPair(first: number, second: number): number {
  let h = Math.imul(first ^ 0x9e3779b9, 0x85ebca6b) ^ second;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * Calls `word` with the hash (FNV-1a over UTF-16 units) of each letter-and-digit run of a folded
 * text, in order: the runs tokensOf gives, without making a string of each.
 */
function forEachWordHash(folded: string, word: (hash: number) => void): void {
  const n = folded.length;
  let h = FNV_OFFSET;
  let inWord = false;
  for (let i = 0; i < n; i++) {
    const unit = folded.charCodeAt(i);
    let width = 1;
    let isWord: boolean;
    if (unit < 0x80) {
      isWord =
        (unit >= 0x61 && unit <= 0x7a) || (unit >= 0x30 && unit <= 0x39) || (unit >= 0x41 && unit <= 0x5a);
    } else {
      const cp = folded.codePointAt(i) as number;
      width = cp > 0xffff ? 2 : 1;
      isWord = WORD_CODE_POINT.test(String.fromCodePoint(cp));
    }
    if (isWord) {
      for (let k = 0; k < width; k++) h = Math.imul(h ^ folded.charCodeAt(i + k), FNV_PRIME);
      inWord = true;
    } else if (inWord) {
      word(h >>> 0);
      h = FNV_OFFSET;
      inWord = false;
    }
    i += width - 1;
  }
  if (inWord) word(h >>> 0);
}

/**
 * The keys a text must hold: its adjacent word pairs, or its one word. A needle found on a page on
 * word boundaries has all its pairs among the page's pairs, since words are maximal runs.
 */
function keysOf(folded: string): number[] {
  const words: number[] = [];
  forEachWordHash(folded, (h) => words.push(h));
  if (words.length < 2) return words;
  const keys: number[] = [];
  for (let k = 1; k < words.length; k++) keys.push(hashPair(words[k - 1], words[k]));
  return keys;
}

/** A growable list of 32-bit keys. */
class KeyList {
  length = 0;
  private keys = new Uint32Array(4096);

  push(key: number): void {
    if (this.length === this.keys.length) {
      const grown = new Uint32Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    this.keys[this.length++] = key;
  }

  /** The distinct keys, sorted, as a new array; the list is emptied. */
  takeSortedUnique(): Uint32Array {
    const sorted = this.keys.subarray(0, this.length).sort();
    let unique = 0;
    for (let k = 0; k < sorted.length; k++)
      if (k === 0 || sorted[k] !== sorted[k - 1]) sorted[unique++] = sorted[k];
    this.length = 0;
    return sorted.slice(0, unique);
  }
}

export class TokenIndex {
  constructor(readonly serialized: SerializedTokenIndex) {}

  static build(pageCount: number, foldedTextsOfPage: (page: number) => string[]): TokenIndex {
    const builder = new TokenIndexBuilder(pageCount);
    for (let page = 1; page <= pageCount; page++) builder.add(page, foldedTextsOfPage(page));
    return builder.finish();
  }

  /**
   * Pages that hold every adjacent word pair (or the one word) of the folded needle, in page order;
   * undefined when the needle has no word (then every page is a candidate).
   */
  candidates(needle: string): number[] | undefined {
    const wanted = keysOf(needle);
    if (wanted.length === 0) return undefined;
    const { offsets, keys, pageCount } = this.serialized;
    const first = wanted[0];
    const pages: number[] = [];
    // One loop over every page, the first key looked up in place: most pages lack it.
    for (let page = 1; page <= pageCount; page++) {
      let lo = offsets[page - 1];
      let hi = offsets[page] - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const v = keys[mid];
        if (v === first) break;
        if (v < first) lo = mid + 1;
        else hi = mid - 1;
      }
      if (lo <= hi && this.holdsAll(page, wanted)) pages.push(page);
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

/**
 * A token index built a page at a time, in any order (as pages arrive from extraction): each page's
 * keys are kept, its texts let go; the index is the same as one built over every page at once.
 */
export class TokenIndexBuilder {
  private readonly perPage: (Uint32Array | undefined)[];
  private readonly list = new KeyList();
  private previous = -1;
  private readonly addWord = (h: number) => {
    this.list.push(h);
    if (this.previous >= 0) this.list.push(hashPair(this.previous, h));
    this.previous = h;
  };

  constructor(readonly pageCount: number) {
    this.perPage = new Array(pageCount);
  }

  /** Whether page `page` (1-based) was added. */
  has(page: number): boolean {
    return this.perPage[page - 1] !== undefined;
  }

  /** Adds a page's folded views (a page added again replaces its keys). */
  add(page: number, foldedTexts: readonly string[]): void {
    if (!Number.isSafeInteger(page) || page < 1 || page > this.pageCount) return;
    for (const text of foldedTexts) {
      this.previous = -1;
      forEachWordHash(text, this.addWord);
    }
    this.perPage[page - 1] = this.list.takeSortedUnique();
  }

  /** The index, once every page was added. */
  finish(): TokenIndex {
    const { pageCount, perPage } = this;
    let total = 0;
    for (let p = 0; p < pageCount; p++) {
      const keys = perPage[p];
      if (!keys) throw new Error(`token index: page ${p + 1} was not added`);
      total += keys.length;
    }
    const offsets = new Int32Array(pageCount + 1);
    const keys = new Uint32Array(total);
    let at = 0;
    for (let p = 0; p < pageCount; p++) {
      offsets[p] = at;
      keys.set(perPage[p] as Uint32Array, at);
      at += (perPage[p] as Uint32Array).length;
    }
    offsets[pageCount] = at;
    return new TokenIndex({ version: TOKEN_INDEX_VERSION, pageCount, offsets, keys });
  }
}
