/**
 * The `fold` normalisation profile, with a map from every folded UTF-16 unit back to the original
 * text: case folded (locale-independent), whitespace runs as one space, ligatures U+FB00-FB06
 * expanded, curly quotes and primes straight, every dash and minus as '-', soft hyphens removed.
 * Nothing else changes: no NFKC, so '²' stays '²'.
 */

export interface FoldedText {
  /** The folded string. */
  text: string;
  /** For each folded UTF-16 unit, the UTF-16 offset in the original of the unit it came from. */
  startUtf16: Int32Array;
  /** For each folded UTF-16 unit, the UTF-16 offset one past the original unit(s) it came from. */
  endUtf16: Int32Array;
}

export type HyphenReading = "joined" | "kept";

export interface FoldOptions {
  /**
   * Offsets (UTF-16, in the original) of line-end hyphens. With "joined" such a hyphen and the
   * line break after it vanish when letters stand on both sides; with "kept" the hyphen stays and
   * the line break vanishes.
   */
  lineEndHyphensUtf16?: readonly number[];
  hyphenReading?: HyphenReading;
  /** Drop leading and trailing whitespace (for a quotation, not for a page). */
  trim?: boolean;
}

const LIGATURES: Record<number, string> = {
  64256: "ff",
  64257: "fi",
  64258: "fl",
  64259: "ffi",
  64260: "ffl",
  64261: "st",
  64262: "st",
};

const SINGLE_QUOTES = new Set([0x2018, 0x2019, 0x201a, 0x201b, 0x2032, 0x2035]);
const DOUBLE_QUOTES = new Set([0x201c, 0x201d, 0x201e, 0x201f, 0x2033, 0x2036]);

export function isFoldDash(code: number): boolean {
  return (
    (code >= 0x2010 && code <= 0x2015) ||
    code === 0x2212 ||
    code === 0xfe58 ||
    code === 0xfe63 ||
    code === 0xff0d
  );
}

export function isFoldSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

const LETTER = /\p{L}/u;

/** Folds one code point (not whitespace) to its folded form. */
export function foldCodePoint(cp: number, ch: string): string {
  const lig = LIGATURES[cp];
  if (lig) return lig;
  if (SINGLE_QUOTES.has(cp)) return "'";
  if (DOUBLE_QUOTES.has(cp)) return '"';
  if (isFoldDash(cp)) return "-";
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? String.fromCharCode(cp + 32) : ch;
  return ch.toLowerCase();
}

export function fold(original: string, options: FoldOptions = {}): FoldedText {
  const n = original.length;
  const out: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const hyphens = options.lineEndHyphensUtf16 ? new Set(options.lineEndHyphensUtf16) : undefined;
  const joined = options.hyphenReading !== "kept";
  let pendingSpace = -1;
  let i = 0;
  while (i < n) {
    const cp = original.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (isFoldSpace(cp)) {
      if (pendingSpace < 0) pendingSpace = i;
      i += width;
      continue;
    }
    if (cp === 0xad) {
      i += 1;
      continue;
    }
    if (hyphens?.has(i)) {
      // Skip the line break that follows the hyphen.
      let j = i + 1;
      while (j < n && isFoldSpace(original.charCodeAt(j))) j++;
      const before = i > 0 ? original[i - 1] : "";
      const after = j < n ? original[j] : "";
      if (joined && LETTER.test(before) && LETTER.test(after)) {
        i = j;
        continue;
      }
      if (pendingSpace >= 0) emitSpace(pendingSpace, i);
      out.push("-");
      starts.push(i);
      ends.push(i + 1);
      i = j;
      continue;
    }
    if (pendingSpace >= 0) emitSpace(pendingSpace, i);
    const ch = width === 2 ? original.slice(i, i + 2) : original[i];
    const folded = foldCodePoint(cp, ch);
    for (let k = 0; k < folded.length; k++) {
      out.push(folded[k]);
      starts.push(i);
      ends.push(i + width);
    }
    i += width;
  }
  if (pendingSpace >= 0 && !options.trim) emitSpace(pendingSpace, n);
  return { text: out.join(""), startUtf16: Int32Array.from(starts), endUtf16: Int32Array.from(ends) };

  function emitSpace(from: number, to: number) {
    if (!(options.trim && out.length === 0)) {
      out.push(" ");
      starts.push(from);
      ends.push(to);
    }
    pendingSpace = -1;
  }
}

/** Only letters and digits, case folded: the skeleton two forms must share to "differ in form". */
export function skeleton(original: string): FoldedText {
  const base = fold(original);
  const out: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const re = /[\p{L}\p{N}]/u;
  for (let i = 0; i < base.text.length; i++) {
    const c = base.text[i];
    const code = c.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < base.text.length) {
      const pair = base.text.slice(i, i + 2);
      if (re.test(pair)) {
        out.push(pair);
        starts.push(base.startUtf16[i], base.startUtf16[i + 1]);
        ends.push(base.endUtf16[i], base.endUtf16[i + 1]);
      }
      i++;
      continue;
    }
    if (re.test(c)) {
      out.push(c);
      starts.push(base.startUtf16[i]);
      ends.push(base.endUtf16[i]);
    }
  }
  return { text: out.join(""), startUtf16: Int32Array.from(starts), endUtf16: Int32Array.from(ends) };
}

/** Words of a quotation as the floors count them: whitespace-separated tokens holding a letter or digit. */
export function countWords(text: string): number {
  return text.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}
