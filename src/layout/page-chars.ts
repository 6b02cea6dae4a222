/**
 * A page's printed characters in flat arrays (generated characters and whitespace left out), the
 * shape the layout rules scan: tight boxes, baselines, sizes, fonts, code points.
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
  code: Int32Array;
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
}

/**
 * Reusable storage for pageChars, so a document's pages do not each allocate their own arrays. A
 * PageChars made with it is valid until the next call with the same storage.
 */
export class CharStorage {
  capacity = 0;
  offset = new Int32Array(0);
  code = new Int32Array(0);
  x0 = new Float32Array(0);
  y0 = new Float32Array(0);
  x1 = new Float32Array(0);
  y1 = new Float32Array(0);
  base = new Float32Array(0);
  size = new Float32Array(0);
  font = new Int16Array(0);
  math = new Uint8Array(0);
  indexOfOffset = new Int32Array(0);

  ensure(n: number): void {
    if (n <= this.capacity) return;
    const c = Math.max(n, Math.ceil(this.capacity * 1.5), 4096);
    this.capacity = c;
    this.offset = new Int32Array(c);
    this.code = new Int32Array(c);
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
  const { offset, code, x0, y0, x1, y1, base, size, font, math } = storage;
  const mathFonts = text.fonts.map((name) => isMathFont(name));
  const indexOfOffset = storage.indexOfOffset.subarray(0, n).fill(-1);
  const g = geom.glyphBoxes;
  const l = geom.looseBoxes;
  let k = 0;
  const usable = geom.flags.length === n;
  const fl = geom.flags;
  const origins = geom.origins;
  // With windows, whole lines outside them are skipped unread (a line's box holds its glyphs).
  const ranges: [number, number][] = windows
    ? text.lines
        .filter((line) => line.endUtf16 > line.startUtf16 && meets(windows, line.box.bottom, line.box.top))
        .map((line) => [line.startUtf16, line.endUtf16])
    : [[0, n]];
  for (const [from, to] of ranges)
    for (let i = from; usable && i < to; i++) {
      if (fl[i] & CHAR_FLAG_GENERATED) continue;
      let left = g[i * 4];
      let bottom = g[i * 4 + 1];
      let right = g[i * 4 + 2];
      let top = g[i * 4 + 3];
      if (!(right > left) || !(top > bottom)) {
        // An empty tight box (rules drawn as glyphs, spaces): fall back on the loose box.
        left = l[i * 4];
        bottom = l[i * 4 + 1];
        right = l[i * 4 + 2];
        top = l[i * 4 + 3];
      }
      if (
        !(Number.isFinite(left) && Number.isFinite(bottom) && Number.isFinite(right) && Number.isFinite(top))
      )
        continue;
      let baseline = origins[i * 2 + 1];
      if (space) {
        const b = space.box({ left, bottom, right, top });
        left = b.left;
        bottom = b.bottom;
        right = b.right;
        top = b.top;
        baseline = space.point(origins[i * 2], baseline)[1];
      }
      let c = text.text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 9 || c === 0xa0) continue;
      if (c >= 0xdc00 && c <= 0xdfff) {
        // Low surrogate: part of the character before it.
        if (k > 0 && offset[k - 1] === i - 1) indexOfOffset[i] = k - 1;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) c = text.text.codePointAt(i) ?? c;
      offset[k] = i;
      code[k] = c;
      x0[k] = left;
      y0[k] = bottom;
      x1[k] = right;
      y1[k] = top;
      base[k] = baseline;
      size[k] = geom.fontSizes[i];
      font[k] = geom.fontIndex[i];
      const symbol =
        c < 0x80 ? c === 0x3d || c === 0x2b || c === 0x3c || c === 0x3e || c === 0x7c : isMathChar(c);
      math[k] = (font[k] >= 0 && mathFonts[font[k]] ? MATH_FONT : 0) | (symbol ? MATH_SYMBOL : 0);
      indexOfOffset[i] = k;
      k++;
    }
  return {
    page: text.page,
    count: k,
    offset: offset.subarray(0, k),
    code: code.subarray(0, k),
    x0: x0.subarray(0, k),
    y0: y0.subarray(0, k),
    x1: x1.subarray(0, k),
    y1: y1.subarray(0, k),
    base: base.subarray(0, k),
    size: size.subarray(0, k),
    font: font.subarray(0, k),
    math: math.subarray(0, k),
    indexOfOffset,
  };
}

/**
 * Characters binned by their bottom edge (1 pt bins, a counting sort), for finding those in a
 * horizontal band quickly. The few tall ones (big delimiters, glyphs drawn as art) are kept apart so
 * they do not widen every search.
 */
export class BandIndex {
  private readonly order: Int32Array;
  /** starts[b] .. starts[b + 1] index `order` for bin b (bottom edge in [minBin + b, minBin + b + 1)). */
  private readonly starts: Int32Array;
  private readonly minBin: number;
  private readonly tall: number[] = [];
  private static readonly TALL = 30;

  constructor(private readonly chars: PageChars) {
    const n = chars.count;
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = 0; k < n; k++) {
      if (chars.y1[k] - chars.y0[k] > BandIndex.TALL) continue;
      const b = Math.floor(chars.y0[k]);
      if (b < lo) lo = b;
      if (b > hi) hi = b;
    }
    if (!Number.isFinite(lo)) {
      lo = 0;
      hi = -1;
    }
    // Clamp absurd coordinates (text placed far off the page) into the end bins.
    const bins = Math.min(hi - lo + 1, 20000);
    const binOf = (y: number) => Math.min(bins - 1, Math.floor(y) - lo);
    const counts = new Int32Array(bins + 1);
    for (let k = 0; k < n; k++) {
      if (chars.y1[k] - chars.y0[k] > BandIndex.TALL) this.tall.push(k);
      else counts[binOf(chars.y0[k]) + 1]++;
    }
    for (let b = 0; b < bins; b++) counts[b + 1] += counts[b];
    const fill = counts.slice(0, bins);
    const order = new Int32Array(n - this.tall.length);
    for (let k = 0; k < n; k++) {
      if (chars.y1[k] - chars.y0[k] > BandIndex.TALL) continue;
      order[fill[binOf(chars.y0[k])]++] = k;
    }
    this.order = order;
    this.starts = counts;
    this.minBin = lo;
  }

  /** Indices of the characters whose box meets the band lo..hi (y), in no particular order. */
  band(lo: number, hi: number): number[] {
    const out: number[] = [];
    const { y0, y1 } = this.chars;
    const bins = this.starts.length - 1;
    const first = Math.max(0, Math.floor(lo - BandIndex.TALL) - this.minBin);
    const last = Math.min(bins - 1, Math.floor(hi) - this.minBin);
    if (last >= first) {
      for (let i = this.starts[first]; i < this.starts[last + 1]; i++) {
        const k = this.order[i];
        if (y1[k] >= lo && y0[k] <= hi) out.push(k);
      }
    }
    for (const k of this.tall) if (y1[k] >= lo && y0[k] <= hi) out.push(k);
    return out;
  }
}

/** Whether bottom..top meets one of the sorted, disjoint windows. */
function meets(windows: [number, number][], bottom: number, top: number): boolean {
  for (const [lo, hi] of windows) {
    if (lo > top) return false;
    if (hi >= bottom) return true;
  }
  return false;
}
