/**
 * Which pages hold which folded word and which pair of adjacent words: lets a quotation be looked
 * for only on the pages that hold every one of its adjacent word pairs, instead of scanning the
 * whole document. Built from the folded views a
 * match is made against (both hyphen readings, whole text and body flow), so it never rules out a
 * page the full search would accept. Stored compactly (sorted tokens, offsets, pages) so it can be
 * cached and used as loaded.
 */

export interface SerializedTokenIndex {
  version: number;
  pageCount: number;
  tokens: string[];
  /** Page lists of token k are pages[offsets[k] .. offsets[k + 1]). */
  offsets: Int32Array;
  pages: Int32Array;
}

export const TOKEN_INDEX_VERSION = 3;

const TOKEN = /[\p{L}\p{N}]+/gu;

/** The letter-and-digit runs of a folded text. */
export function tokensOf(folded: string): string[] {
  return folded.match(TOKEN) ?? [];
}

/**
 * The index keys a text must hold: its adjacent word pairs, or its one word. A needle found on a
 * page on word boundaries has all its pairs among the page's pairs, since words are maximal runs.
 */
function keysOf(folded: string): string[] {
  const words = tokensOf(folded);
  if (words.length < 2) return words;
  const keys: string[] = [];
  for (let k = 1; k < words.length; k++) keys.push(`${words[k - 1]} ${words[k]}`);
  return keys;
}

export class TokenIndex {
  constructor(readonly serialized: SerializedTokenIndex) {}

  /** The pages holding a token, by binary search over the sorted tokens: nothing to build on load. */
  private pagesOf(token: string): Int32Array | undefined {
    const { tokens, offsets, pages } = this.serialized;
    let lo = 0;
    let hi = tokens.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const t = tokens[mid];
      if (t === token) return pages.subarray(offsets[mid], offsets[mid + 1]);
      if (t < token) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  static build(pageCount: number, foldedTextsOfPage: (page: number) => string[]): TokenIndex {
    const lists = new Map<string, number[]>();
    for (let page = 1; page <= pageCount; page++) {
      const seen = new Set<string>();
      for (const text of foldedTextsOfPage(page)) {
        const words = tokensOf(text);
        for (let k = 0; k < words.length; k++) {
          seen.add(words[k]);
          if (k > 0) seen.add(`${words[k - 1]} ${words[k]}`);
        }
      }
      for (const token of seen) {
        const list = lists.get(token);
        if (list) list.push(page);
        else lists.set(token, [page]);
      }
    }
    const tokens = [...lists.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const offsets = new Int32Array(tokens.length + 1);
    let total = 0;
    for (let k = 0; k < tokens.length; k++) {
      offsets[k] = total;
      total += lists.get(tokens[k])!.length;
    }
    offsets[tokens.length] = total;
    const pages = new Int32Array(total);
    for (let k = 0; k < tokens.length; k++) pages.set(lists.get(tokens[k])!, offsets[k]);
    return new TokenIndex({ version: TOKEN_INDEX_VERSION, pageCount, tokens, offsets, pages });
  }

  /**
   * Pages that hold every adjacent word pair (or the one word) of the folded needle, in page order;
   * undefined when the needle has no word (then every page is a candidate).
   */
  candidates(needle: string): number[] | undefined {
    const words = [...new Set(keysOf(needle))];
    if (words.length === 0) return undefined;
    const lists = words.map((w) => this.pagesOf(w));
    if (lists.some((l) => l === undefined)) return [];
    const sorted = (lists as Int32Array[]).sort((a, b) => a.length - b.length);
    let result = Array.from(sorted[0]);
    for (let k = 1; k < sorted.length && result.length > 0; k++) {
      const other = sorted[k];
      result = result.filter((page) => binaryHas(other, page));
    }
    return result;
  }

  has(page: number, needle: string): boolean {
    const words = keysOf(needle);
    for (const w of words) {
      const list = this.pagesOf(w);
      if (!list || !binaryHas(list, page)) return false;
    }
    return true;
  }
}

function binaryHas(list: Int32Array, value: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list[mid];
    if (v === value) return true;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
