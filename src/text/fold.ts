/**
 * The `fold` normalisation profile, with a map from every folded UTF-16 unit back to the original
 * text: case folded (locale-independent), whitespace runs as one space, ligatures U+FB00-FB06
 * expanded, curly quotes and primes straight, every dash and minus as '-', soft hyphens removed,
 * accents set apart from their letter recombined with it (accents.ts) and canonical composition
 * (NFC). Nothing else changes: no NFKC, so '²' stays '²'.
 */

import { accentMark, baseLetters, composeAccent, isCombiningMark, isLetter } from "./accents.js";
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
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? String.fromCharCode(cp + 32) : ch;
  let folded = FOLDED.get(cp);
  if (folded === undefined) {
    folded = foldWide(cp, ch);
    FOLDED.set(cp, folded);
  }
  return folded;
}

/** Folded forms of the non-ASCII code points seen so far (a map lookup costs less than NFC and case mapping). */
const FOLDED = new Map<number, string>();

function foldWide(cp: number, ch: string): string {
  const lig = LIGATURES[cp];
  if (lig) return lig;
  if (SINGLE_QUOTES.has(cp)) return "'";
  if (DOUBLE_QUOTES.has(cp)) return '"';
  if (isFoldDash(cp)) return "-";
  // Canonical singletons (the Ångström sign, the Kelvin sign) are their letters.
  return ch.normalize("NFC").toLowerCase();
}

/** Pushes the folded form of each code point of `text`, every unit mapped to [from, to). */
function pushFolded(buffer: FoldBuffer, text: string, from: number, to: number): void {
  for (const ch of text) {
    const folded = foldCodePoint(ch.codePointAt(0) as number, ch);
    for (let k = 0; k < folded.length; k++) buffer.push(folded.charCodeAt(k), from, to);
  }
}

/**
 * An accent (spacing or combining) at `at` composed with the letter after it (a spacing accent
 * only, as TeX sets it) or, failing that, with the letter just folded before it. Returns the offset
 * to go on from, or -1 when the accent stands alone. `spaceBefore` is the pending space, if any.
 */
function foldAccent(
  original: string,
  at: number,
  cp: number,
  mark: number,
  buffer: FoldBuffer,
  spaceBefore: number,
  trim: boolean,
): number {
  const width = cp > 0xffff ? 2 : 1;
  const n = original.length;
  const after = at + width;
  if (!isCombiningMark(cp) && after < n) {
    const next = original.codePointAt(after) as number;
    if (isLetter(next)) {
      const marks = [mark];
      let end = after + (next > 0xffff ? 2 : 1);
      while (end < n) {
        const more = original.codePointAt(end) as number;
        if (!isCombiningMark(more)) break;
        marks.push(more);
        end += more > 0xffff ? 2 : 1;
      }
      const composed = composeAccent(String.fromCodePoint(next), marks);
      if (composed) {
        if (spaceBefore >= 0 && !(trim && buffer.length === 0)) buffer.push(32, spaceBefore, at);
        pushFolded(buffer, composed, at, end);
        return end;
      }
    }
  }
  const last = buffer.length - 1;
  if (spaceBefore < 0 && last >= 0 && buffer.ends[last] === at) {
    const start = buffer.starts[last];
    const base = original.slice(start, at);
    const first = base.codePointAt(0) as number;
    if (isLetter(first) && LIGATURES[first] === undefined) {
      const composed = composeAccent(base, [mark]);
      if (composed) {
        while (buffer.length > 0 && buffer.starts[buffer.length - 1] === start) buffer.length--;
        pushFolded(buffer, composed, start, after);
        return after;
      }
    }
  }
  return -1;
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
  // Folding can lengthen a character (a ligature to three letters, some case mappings to three units).
  const buffer = new FoldBuffer(original.length + 16);
  foldInto(original, settingsOf(options), buffer);
  return buffer.result();
}

/** The buffer foldedText folds in, kept between calls; one grown past this many units is not kept. */
let scratch: FoldBuffer | undefined;
const SCRATCH_KEPT_UNITS = 1 << 20;

/**
 * fold(original, options).text alone, folded in one buffer kept between calls: for callers that keep
 * no offsets. The token index folds up to six views of every page; fresh offset arrays for each
 * were most of the garbage a long read made on the main thread.
 */
export function foldedText(original: string, options: FoldOptions = {}): string {
  const buffer = scratch ?? new FoldBuffer(original.length + 16);
  scratch = undefined;
  buffer.length = 0;
  foldInto(original, settingsOf(options), buffer);
  const text = unitsToString(buffer.out, buffer.length);
  if (buffer.out.length <= SCRATCH_KEPT_UNITS) scratch = buffer;
  return text;
}

/** The options as the fold loop reads them. */
interface FoldSettings {
  hyphens: Set<number> | undefined;
  joined: boolean;
  trim: boolean;
  breaks: Float64Array | undefined;
}

/**
 * Read here, not in foldInto: callers' option objects (and their offset arrays) come in several
 * shapes, and one first seen after V8 optimized the long fold loop would throw that code away to be
 * compiled again. The breaks are copied into one kind of array, every number kept as it is.
 */
function settingsOf(options: FoldOptions): FoldSettings {
  return {
    hyphens:
      options.lineEndHyphensUtf16 && options.lineEndHyphensUtf16.length > 0
        ? new Set(options.lineEndHyphensUtf16)
        : undefined,
    joined: options.hyphenReading !== "kept",
    trim: options.trim === true,
    breaks:
      options.breaksUtf16 && options.breaksUtf16.length > 0
        ? Float64Array.from(options.breaksUtf16)
        : undefined,
  };
}

/** Folds `original` onto the end of an empty buffer. */
function foldInto(original: string, settings: FoldSettings, buffer: FoldBuffer): void {
  const n = original.length;
  const { hyphens, joined, trim, breaks } = settings;
  let nextBreak = breaks ? 0 : -1;
  let pendingSpace = -1;
  let i = 0;

  while (i < n) {
    if (nextBreak >= 0) {
      const list = breaks as Float64Array;
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
      if (unit !== 0x60 && (unit !== 0x2d || hyphens === undefined || !hyphens.has(i))) {
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
    if (cp === 0x60 || cp >= 0xa8) {
      const mark = accentMark(cp);
      if (mark >= 0) {
        const resume = foldAccent(original, i, cp, mark, buffer, pendingSpace, trim);
        if (resume >= 0) {
          pendingSpace = -1;
          i = resume;
          continue;
        }
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
}

/** Only letters and digits, case folded: the skeleton two forms must share to "differ in form". */
export function skeleton(original: string): FoldedText {
  return skeletonOf(fold(original));
}

/**
 * The skeleton of a text already folded (fold(original), no other options), mapped to the original:
 * letters without their accents (so a missing or different accent differs only in form) and digits.
 */
export function skeletonOf(base: FoldedText): FoldedText {
  const text = base.text;
  const n = text.length;
  const buffer = new FoldBuffer(n + 16);
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if ((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a))
        buffer.push(code, base.startUtf16[i], base.endUtf16[i]);
      continue;
    }
    const astral = code >= 0xd800 && code <= 0xdbff && i + 1 < n;
    const ch = astral ? text.slice(i, i + 2) : text[i];
    if (LETTER_OR_DIGIT.test(ch)) {
      const letters = baseLetters(ch);
      for (let k = 0; k < letters.length; k++)
        buffer.push(letters.charCodeAt(k), base.startUtf16[i], base.endUtf16[astral ? i + 1 : i]);
    }
    if (astral) i++;
  }
  return buffer.result();
}

/** The skeleton of a quotation as a string: what formDiffers looks for in a page's skeleton. */
export function skeletonText(original: string): string {
  return skeletonOf(fold(original, { trim: true })).text;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** Words of a quotation as the floors count them: whitespace-separated tokens holding a letter or digit. */
export function countWords(text: string): number {
  return text.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}
