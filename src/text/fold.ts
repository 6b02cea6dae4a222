/**
 * The `fold` normalisation profile, with a map from every folded UTF-16 unit back to the original
 * text: case folded (locale-independent), whitespace runs as one space, ligatures U+FB00-FB06
 * expanded, curly quotes and primes straight, every dash and minus as '-', soft hyphens removed.
 * Nothing else changes: no NFKC, so '²' stays '²'.
 */

import { isUnicodeWhitespace } from "./whitespace-v1.js";

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
  /**
   * Offsets (UTF-16, in the original) before which a space is read although none is printed: a
   * footnote mark glued to a word. The space maps to an empty range of the original.
   */
  breaksUtf16?: readonly number[];
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

/** Unicode White_Space, and the zero-width no-break space (an invisible byte-order mark left in text). */
export function isFoldSpace(code: number): boolean {
  return isUnicodeWhitespace(code) || code === 0xfeff;
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

const UTF16 = new TextDecoder("utf-16le");

export function fold(original: string, options: FoldOptions = {}): FoldedText {
  const n = original.length;
  // Folding can lengthen a character (a ligature to three letters, some case mappings to three units).
  let capacity = n + 16;
  let out = new Uint16Array(capacity);
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let length = 0;
  const hyphens =
    options.lineEndHyphensUtf16 && options.lineEndHyphensUtf16.length > 0
      ? new Set(options.lineEndHyphensUtf16)
      : undefined;
  const joined = options.hyphenReading !== "kept";
  const trim = options.trim === true;
  const breaks = options.breaksUtf16 && options.breaksUtf16.length > 0 ? options.breaksUtf16 : undefined;
  let nextBreak = breaks ? 0 : -1;
  let pendingSpace = -1;
  let i = 0;

  const grow = (extra: number) => {
    if (length + extra <= capacity) return;
    capacity = Math.max(capacity * 2, length + extra);
    const o = new Uint16Array(capacity);
    o.set(out.subarray(0, length));
    out = o;
    const st = new Int32Array(capacity);
    st.set(starts.subarray(0, length));
    starts = st;
    const en = new Int32Array(capacity);
    en.set(ends.subarray(0, length));
    ends = en;
  };
  const emit = (unit: number, from: number, to: number) => {
    out[length] = unit;
    starts[length] = from;
    ends[length] = to;
    length++;
  };
  const flushSpace = (to: number) => {
    if (!(trim && length === 0)) {
      grow(1);
      emit(32, pendingSpace, to);
    }
    pendingSpace = -1;
  };

  while (i < n) {
    if (nextBreak >= 0) {
      while (nextBreak < breaks!.length && breaks![nextBreak] < i) nextBreak++;
      if (nextBreak < breaks!.length && breaks![nextBreak] === i && pendingSpace < 0 && length > 0)
        pendingSpace = i;
      if (nextBreak >= breaks!.length) nextBreak = -1;
    }
    const unit = original.charCodeAt(i);
    if (unit < 0x80) {
      // ASCII fast path: whitespace, capitals, everything else as is.
      if (unit === 32 || (unit >= 9 && unit <= 13)) {
        if (pendingSpace < 0) pendingSpace = i;
        i++;
        continue;
      }
      if (unit === 0x2d && hyphens?.has(i)) {
        i = foldLineEndHyphen(i);
        continue;
      }
      if (pendingSpace >= 0) flushSpace(i);
      if (length === capacity) grow(1);
      out[length] = unit >= 0x41 && unit <= 0x5a ? unit + 32 : unit;
      starts[length] = i;
      ends[length] = i + 1;
      length++;
      i++;
      continue;
    }
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
      i = foldLineEndHyphen(i);
      continue;
    }
    if (pendingSpace >= 0) flushSpace(i);
    const ch = width === 2 ? original.slice(i, i + 2) : original[i];
    const folded = foldCodePoint(cp, ch);
    grow(folded.length);
    for (let k = 0; k < folded.length; k++) emit(folded.charCodeAt(k), i, i + width);
    i += width;
  }
  if (pendingSpace >= 0 && !trim) flushSpace(n);
  // Views, not copies: the spare capacity is small and copying costs more than it saves.
  return {
    text: UTF16.decode(out.subarray(0, length)),
    startUtf16: starts.subarray(0, length),
    endUtf16: ends.subarray(0, length),
  };

  /** Handles the line-end hyphen at `at`; returns where folding goes on. */
  function foldLineEndHyphen(at: number): number {
    // Skip the line break that follows the hyphen.
    let j = at + 1;
    while (j < n && isFoldSpace(original.charCodeAt(j))) j++;
    const before = at > 0 ? original[at - 1] : "";
    const after = j < n ? original[j] : "";
    if (joined && LETTER.test(before) && LETTER.test(after)) return j;
    if (pendingSpace >= 0) flushSpace(at);
    grow(1);
    emit(0x2d, at, at + 1);
    return j;
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
