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

/** The string of UTF-16 units (lone surrogates kept as they are); several times faster than TextDecoder. */
function unitsToString(units: Uint16Array, length: number): string {
  return Buffer.from(units.buffer, units.byteOffset, length * 2).toString("utf16le");
}

/**
 * The folded units and their offsets, grown on demand. The fold loop keeps its state in locals and
 * this object's fields: state captured by closures would live in a heap context and slow every
 * character.
 */
class FoldBuffer {
  length = 0;
  out: Uint16Array<ArrayBuffer>;
  starts: Int32Array<ArrayBuffer>;
  ends: Int32Array<ArrayBuffer>;

  constructor(private capacity: number) {
    this.out = new Uint16Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  push(unit: number, from: number, to: number): void {
    if (this.length === this.capacity) this.grow(this.length + 1);
    const at = this.length;
    this.out[at] = unit;
    this.starts[at] = from;
    this.ends[at] = to;
    this.length = at + 1;
  }

  private grow(needed: number): void {
    this.capacity = Math.max(this.capacity * 2, needed);
    const out = new Uint16Array(this.capacity);
    out.set(this.out);
    this.out = out;
    const starts = new Int32Array(this.capacity);
    starts.set(this.starts);
    this.starts = starts;
    const ends = new Int32Array(this.capacity);
    ends.set(this.ends);
    this.ends = ends;
  }

  result(): FoldedText {
    // Views, not copies: the spare capacity is small and copying costs more than it saves.
    return {
      text: unitsToString(this.out, this.length),
      startUtf16: this.starts.subarray(0, this.length),
      endUtf16: this.ends.subarray(0, this.length),
    };
  }
}

export function fold(original: string, options: FoldOptions = {}): FoldedText {
  const n = original.length;
  // Folding can lengthen a character (a ligature to three letters, some case mappings to three units).
  const buffer = new FoldBuffer(n + 16);
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

  while (i < n) {
    if (nextBreak >= 0) {
      const list = breaks as readonly number[];
      while (nextBreak < list.length && list[nextBreak] < i) nextBreak++;
      if (nextBreak < list.length && list[nextBreak] === i && pendingSpace < 0 && buffer.length > 0)
        pendingSpace = i;
      if (nextBreak >= list.length) nextBreak = -1;
    }
    const unit = original.charCodeAt(i);
    let cp = unit;
    let width = 1;
    if (unit < 0x80) {
      // ASCII fast path: whitespace, capitals, everything else as is.
      if (unit === 32 || (unit >= 9 && unit <= 13)) {
        if (pendingSpace < 0) pendingSpace = i;
        i++;
        continue;
      }
      if (unit !== 0x2d || hyphens === undefined || !hyphens.has(i)) {
        if (pendingSpace >= 0) {
          if (!(trim && buffer.length === 0)) buffer.push(32, pendingSpace, i);
          pendingSpace = -1;
        }
        buffer.push(unit >= 0x41 && unit <= 0x5a ? unit + 32 : unit, i, i + 1);
        i++;
        continue;
      }
    } else {
      cp = original.codePointAt(i) as number;
      width = cp > 0xffff ? 2 : 1;
      if (isFoldSpace(cp)) {
        if (pendingSpace < 0) pendingSpace = i;
        i += width;
        continue;
      }
      if (cp === 0xad) {
        i += 1;
        continue;
      }
    }
    let folded: string;
    let to = i + width;
    let next = i + width;
    if (hyphens?.has(i)) {
      // A line-end hyphen: the line break after it is skipped; with the "joined" reading the
      // hyphen vanishes too when letters stand on both sides.
      let j = i + 1;
      while (j < n && isFoldSpace(original.charCodeAt(j))) j++;
      const before = i > 0 ? original[i - 1] : "";
      const after = j < n ? original[j] : "";
      if (joined && LETTER.test(before) && LETTER.test(after)) {
        i = j;
        continue;
      }
      folded = "-";
      to = i + 1;
      next = j;
    } else {
      folded = foldCodePoint(cp, width === 2 ? original.slice(i, i + 2) : original[i]);
    }
    if (pendingSpace >= 0) {
      if (!(trim && buffer.length === 0)) buffer.push(32, pendingSpace, i);
      pendingSpace = -1;
    }
    for (let k = 0; k < folded.length; k++) buffer.push(folded.charCodeAt(k), i, to);
    i = next;
  }
  if (pendingSpace >= 0 && !trim) buffer.push(32, pendingSpace, n);
  return buffer.result();
}

/** Only letters and digits, case folded: the skeleton two forms must share to "differ in form". */
export function skeleton(original: string): FoldedText {
  return skeletonOf(fold(original));
}

/** The skeleton of a text already folded (fold(original), no other options), mapped to the original. */
export function skeletonOf(base: FoldedText): FoldedText {
  const text = base.text;
  const n = text.length;
  const out = new Uint16Array(n);
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  let length = 0;
  const keep = (i: number) => {
    out[length] = text.charCodeAt(i);
    starts[length] = base.startUtf16[i];
    ends[length] = base.endUtf16[i];
    length++;
  };
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if ((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a))
        keep(i);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < n) {
      if (LETTER_OR_DIGIT.test(text.slice(i, i + 2))) {
        keep(i);
        keep(i + 1);
      }
      i++;
      continue;
    }
    if (LETTER_OR_DIGIT.test(text[i])) keep(i);
  }
  return {
    text: unitsToString(out, length),
    startUtf16: starts.slice(0, length),
    endUtf16: ends.slice(0, length),
  };
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** Words of a quotation as the floors count them: whitespace-separated tokens holding a letter or digit. */
export function countWords(text: string): number {
  return text.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}
