/**
 * A page's printed characters in flat arrays (generated characters and whitespace left out), the
 * shape the layout rules scan: tight boxes, baselines, sizes, fonts and what marks them as mathematics.
 */
import { CHAR_FLAG_GENERATED, type PageGeometry, type PageText } from "../document/model.js";
import type { DisplaySpace } from "./display-space.js";
import { isMathChar, isMathFont } from "./math-signals.js";

export const MATH_FONT = 1;
export const MATH_SYMBOL = 2;

export interface PageChars {
  page: number;
  count: number;
  /** Offset in PageText.text (UTF-16) of each character. */
  offset: Int32Array;
  x0: Float32Array;
  y0: Float32Array;
  x1: Float32Array;
  y1: Float32Array;
  /** Baseline (origin y). */
  base: Float32Array;
  size: Float32Array;
  font: Int16Array;
  /** MATH_FONT when set in a math font, plus MATH_SYMBOL when a math symbol; 0 for neither. */
  math: Uint8Array;
  /** For each UTF-16 offset of the text, the index of its character here, or -1. */
  indexOfOffset: Int32Array;
  /**
   * The characters come in runs, one for each text line read: run r holds indices runStart[r] to
   * runEnd[r] - 1, whose boxes lie between runBottom[r] and runTop[r] (y).
   */
  runCount: number;
  runStart: Int32Array;
  runEnd: Int32Array;
  runBottom: Float32Array;
  runTop: Float32Array;
}

/**
 * Reusable storage for pageChars, so a document's pages do not each allocate their own arrays. A
 * PageChars made with it is valid until the next call with the same storage.
 */
export class CharStorage {
  capacity = 0;
  offset = new Int32Array(0);
  x0 = new Float32Array(0);
  y0 = new Float32Array(0);
  x1 = new Float32Array(0);
  y1 = new Float32Array(0);
  base = new Float32Array(0);
  size = new Float32Array(0);
  font = new Int16Array(0);
  math = new Uint8Array(0);
  indexOfOffset = new Int32Array(0);
  runCapacity = 0;
  runStart = new Int32Array(0);
  runEnd = new Int32Array(0);
  runBottom = new Float32Array(0);
  runTop = new Float32Array(0);

  ensureRuns(n: number): void {
    if (n <= this.runCapacity) return;
    const c = grownCapacity(this.runCapacity, n, 256);
    this.runCapacity = c;
    this.runStart = new Int32Array(c);
    this.runEnd = new Int32Array(c);
    this.runBottom = new Float32Array(c);
    this.runTop = new Float32Array(c);
  }

  ensure(n: number): void {
    if (n <= this.capacity) return;
    const c = grownCapacity(this.capacity, n, 4096);
    this.capacity = c;
    this.offset = new Int32Array(c);
    this.x0 = new Float32Array(c);
    this.y0 = new Float32Array(c);
    this.x1 = new Float32Array(c);
    this.y1 = new Float32Array(c);
    this.base = new Float32Array(c);
    this.size = new Float32Array(c);
    this.font = new Int16Array(c);
    this.math = new Uint8Array(c);
    this.indexOfOffset = new Int32Array(c);
  }
}

/** Room for n entries, growing by half at least (so a run of growing pages reallocates rarely). */
function grownCapacity(current: number, n: number, least: number): number {
  return Math.max(n, Math.ceil(current * 1.5), least);
}

/**
 * The page's characters; with `windows` (sorted, disjoint [bottom, top] ranges of y), only those
 * whose box meets a window.
 */
export function pageChars(
  text: PageText,
  geom: PageGeometry,
  storage: CharStorage = new CharStorage(),
  windows?: [number, number][],
  space?: DisplaySpace,
): PageChars {
  const n = text.text.length;
  storage.ensure(n);
  const indexOfOffset = storage.indexOfOffset.subarray(0, n).fill(-1);
  const fontFlags = new Uint8Array(text.fonts.length);
  for (let f = 0; f < fontFlags.length; f++) fontFlags[f] = isMathFont(text.fonts[f]) ? MATH_FONT : 0;
  let k = 0;
  let runs = 0;
  const lines = text.lines;
  storage.ensureRuns(Math.max(1, lines.length));
  const { runStart, runEnd } = storage;
  if (geom.flags.length === n) {
    // The runs to read: each line (within the windows, when given; a line's box holds its glyphs),
    // or the whole text when it has no lines.
    if (lines.length === 0) {
      runStart[0] = 0;
      runEnd[0] = n;
      runs = 1;
    }
    for (let l = 0; l < lines.length; l++) {
      const line = lines[l];
      if (line.endUtf16 <= line.startUtf16) continue;
      if (windows && !meets(windows, line.box.bottom, line.box.top)) continue;
      runStart[runs] = line.startUtf16;
      runEnd[runs] = line.endUtf16;
      runs++;
    }
    // Each run's text offsets become the range of its characters.
    for (let r = 0; r < runs; r++) {
      const from = runStart[r];
      runStart[r] = k;
      k = readChars(
        text.text,
        from,
        runEnd[r],
        k,
        geom.glyphBoxes,
        geom.looseBoxes,
        geom.origins,
        geom.fontSizes,
        geom.fontIndex,
        geom.flags,
        fontFlags,
        storage,
        indexOfOffset,
      );
      runEnd[r] = k;
    }
    if (space) toDisplaySpace(storage, k, geom.origins, space);
    runExtents(storage, runs);
  }
  return {
    page: text.page,
    count: k,
    offset: storage.offset.subarray(0, k),
    x0: storage.x0.subarray(0, k),
    y0: storage.y0.subarray(0, k),
    x1: storage.x1.subarray(0, k),
    y1: storage.y1.subarray(0, k),
    base: storage.base.subarray(0, k),
    size: storage.size.subarray(0, k),
    font: storage.font.subarray(0, k),
    math: storage.math.subarray(0, k),
    indexOfOffset,
    runCount: runs,
    runStart: storage.runStart,
    runEnd: storage.runEnd,
    runBottom: storage.runBottom,
    runTop: storage.runTop,
  };
}

/** The vertical extent of each run's characters (empty runs get one that meets no band). */
function runExtents(storage: CharStorage, runs: number): void {
  const { runStart, runEnd, runBottom, runTop, y0, y1 } = storage;
  for (let r = 0; r < runs; r++) {
    let bottom = Infinity;
    let top = -Infinity;
    for (let k = runStart[r]; k < runEnd[r]; k++) {
      bottom = Math.min(bottom, y0[k]);
      top = Math.max(top, y1[k]);
    }
    runBottom[r] = bottom;
    runTop[r] = top;
  }
}

/**
 * Copies the printed characters of text[from, to) into the storage from index `at` on; returns the
 * index after the last one. Kept apart, with only arrays and numbers to read, so it compiles small.
 */
function readChars(
  text: string,
  from: number,
  to: number,
  at: number,
  g: Float32Array,
  l: Float32Array,
  origins: Float32Array,
  fontSizes: Float32Array,
  fontIndex: Int16Array,
  flags: Uint8Array,
  fontFlags: Uint8Array,
  storage: CharStorage,
  indexOfOffset: Int32Array,
): number {
  const { offset, x0, y0, x1, y1, base, size, font, math } = storage;
  let k = at;
  for (let i = from; i < to; i++) {
    if (flags[i] & CHAR_FLAG_GENERATED) continue;
    let c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 0xa0) continue;
    const b = i * 4;
    let left = g[b];
    let bottom = g[b + 1];
    let right = g[b + 2];
    let top = g[b + 3];
    if (!(right > left) || !(top > bottom)) {
      // An empty tight box (rules drawn as glyphs, spaces): fall back on the loose box.
      left = l[b];
      bottom = l[b + 1];
      right = l[b + 2];
      top = l[b + 3];
    }
    if (!(Number.isFinite(left) && Number.isFinite(bottom) && Number.isFinite(right) && Number.isFinite(top)))
      continue;
    if (c >= 0xdc00 && c <= 0xdfff) {
      // Low surrogate: part of the character before it.
      if (k > 0 && offset[k - 1] === i - 1) indexOfOffset[i] = k - 1;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) c = text.codePointAt(i) ?? c;
    offset[k] = i;
    x0[k] = left;
    y0[k] = bottom;
    x1[k] = right;
    y1[k] = top;
    base[k] = origins[i * 2 + 1];
    size[k] = printedSize(fontSizes[i], l[b + 1], l[b + 3]);
    const f = fontIndex[i];
    font[k] = f;
    const symbol =
      c < 0x80
        ? c === 0x3d || c === 0x2b || c === 0x3c || c === 0x3e || c === 0x7c
        : isMathChar(c) ||
          (c >= 0xbc && c <= 0xfe && remappedSymbol(c, left, bottom, right, top, base[k], size[k]));
    math[k] = (f >= 0 ? fontFlags[f] : 0) | (symbol ? MATH_SYMBOL : 0);
    indexOfOffset[i] = k;
    k++;
  }
  return k;
}

/**
 * The size a character is printed at. Some typesetters (3B2, Distiller output) set every font at
 * size 1 and scale it with the text matrix, so the font size says nothing; the loose box's height
 * (the font's ascent to descent, as printed) stands in for it then.
 */
export function printedSize(fontSize: number, looseBottom: number, looseTop: number): number {
  if (fontSize >= MIN_PLAUSIBLE_SIZE) return fontSize;
  const h = looseTop - looseBottom;
  return h > fontSize && Number.isFinite(h) ? h : fontSize;
}

/** Below this, a font size (in points) is a text-matrix scale factor rather than a printed size. */
export const MIN_PLAUSIBLE_SIZE = 2.5;

/**
 * Some math fonts put parentheses, "=" and "+" at the code points of ð Þ ¼ þ (Latin-1 letters no
 * formula uses). Their glyphs tell them apart from the letters: see parenthesisGlyph; "=" floats
 * above the baseline and is short, where ¼ stands on it; "+" is short and reaches hardly below the
 * baseline, where þ has both an ascender and a descender.
 */
function remappedSymbol(
  c: number,
  left: number,
  bottom: number,
  right: number,
  top: number,
  base: number,
  em: number,
): boolean {
  if (c === 0xf0 || c === 0xde) return parenthesisGlyph(left, bottom, right, top, base);
  if (c === 0xbc) return bottom >= base + em * 0.04 && top - bottom <= em * 0.4;
  if (c === 0xfe) return bottom >= base - em * 0.12 && top - bottom <= em * 0.75;
  return false;
}

/**
 * A glyph shaped as a parenthesis: narrow, and reaching well below the baseline as well as well
 * above it (the letters ð and Þ, at whose code points some math fonts put them, sit on the baseline).
 */
export function parenthesisGlyph(
  left: number,
  bottom: number,
  right: number,
  top: number,
  base: number,
): boolean {
  const h = top - bottom;
  return h > 0 && base - bottom >= h * 0.15 && top - base >= h * 0.55 && right - left <= h * 0.45;
}

/** Turns the first `count` characters' boxes and baselines into display space (a page with /Rotate). */
function toDisplaySpace(
  storage: CharStorage,
  count: number,
  origins: Float32Array,
  space: DisplaySpace,
): void {
  const { offset, x0, y0, x1, y1, base } = storage;
  for (let k = 0; k < count; k++) {
    const b = space.box({ left: x0[k], bottom: y0[k], right: x1[k], top: y1[k] });
    x0[k] = b.left;
    y0[k] = b.bottom;
    x1[k] = b.right;
    y1[k] = b.top;
    base[k] = space.point(origins[offset[k] * 2], base[k])[1];
  }
}

/**
 * Finds the characters in a horizontal band: the runs (text lines) whose extent meets the band are
 * looked into, the others skipped whole.
 */
export class BandIndex {
  /**
   * The characters found by the last scan (its first `count` entries), overwritten by the next one:
   * read them before scanning again.
   */
  get hits(): Int32Array {
    return sharedHits;
  }

  constructor(private readonly chars: PageChars) {}

  /**
   * Puts the indices of the characters whose box meets the band lo..hi (y) into `hits`, in the
   * order they were read, and returns how many there are.
   */
  scan(lo: number, hi: number): number {
    const { y0, y1, runCount, runStart, runEnd, runBottom, runTop } = this.chars;
    let hits = sharedHits;
    let count = 0;
    for (let r = 0; r < runCount; r++) {
      if (runTop[r] < lo || runBottom[r] > hi) continue;
      const end = runEnd[r];
      for (let k = runStart[r]; k < end; k++) {
        if (y1[k] >= lo && y0[k] <= hi) {
          if (count === hits.length) hits = grow(hits);
          hits[count++] = k;
        }
      }
    }
    sharedHits = hits;
    return count;
  }

  /** The characters whose box meets the band lo..hi (y), as scan finds them, in an array of their own. */
  band(lo: number, hi: number): number[] {
    const count = this.scan(lo, hi);
    // Pushed, not preallocated: a packed array, like every other list of characters the rules pass.
    const out: number[] = [];
    for (let j = 0; j < count; j++) out.push(this.hits[j]);
    return out;
  }
}

/** The hits buffer, shared by every index (one page is decided at a time). */
let sharedHits: Int32Array = new Int32Array(8192);

function grow(hits: Int32Array): Int32Array {
  const bigger = new Int32Array(hits.length * 2);
  bigger.set(hits);
  return bigger;
}

/** Whether bottom..top meets one of the sorted, disjoint windows. */
function meets(windows: [number, number][], bottom: number, top: number): boolean {
  for (let i = 0; i < windows.length; i++) {
    const window = windows[i];
    if (window[0] > top) return false;
    if (window[1] >= bottom) return true;
  }
  return false;
}
