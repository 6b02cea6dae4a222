/**
 * A page's printed characters in flat arrays (generated characters and whitespace left out), the
 * shape the layout rules scan: tight boxes, baselines, sizes, fonts, code points.
 */
import { CHAR_FLAG_GENERATED, type PageGeometry, type PageText } from "../document/model.js";

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
  /** For each UTF-16 offset of the text, the index of its character here, or -1. */
  indexOfOffset: Int32Array;
}

export function pageChars(text: PageText, geom: PageGeometry): PageChars {
  const n = text.text.length;
  const offset = new Int32Array(n);
  const code = new Int32Array(n);
  const x0 = new Float32Array(n);
  const y0 = new Float32Array(n);
  const x1 = new Float32Array(n);
  const y1 = new Float32Array(n);
  const base = new Float32Array(n);
  const size = new Float32Array(n);
  const font = new Int16Array(n);
  const indexOfOffset = new Int32Array(n).fill(-1);
  const g = geom.glyphBoxes;
  const l = geom.looseBoxes;
  let k = 0;
  const usable = geom.flags.length === n;
  for (let i = 0; usable && i < n; i++) {
    if (geom.flags[i] & CHAR_FLAG_GENERATED) continue;
    let c = text.text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 0xa0) continue;
    if (c >= 0xdc00 && c <= 0xdfff) {
      // Low surrogate: part of the character before it.
      if (k > 0 && offset[k - 1] === i - 1) indexOfOffset[i] = k - 1;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) c = text.text.codePointAt(i) ?? c;
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
    if (!(Number.isFinite(left) && Number.isFinite(bottom) && Number.isFinite(right) && Number.isFinite(top)))
      continue;
    offset[k] = i;
    code[k] = c;
    x0[k] = left;
    y0[k] = bottom;
    x1[k] = right;
    y1[k] = top;
    base[k] = geom.origins[i * 2 + 1];
    size[k] = geom.fontSizes[i];
    font[k] = geom.fontIndex[i];
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
    indexOfOffset,
  };
}

/**
 * Characters ordered by their bottom edge, for finding those in a horizontal band quickly. The few
 * tall ones (big delimiters, glyphs drawn as art) are kept apart so they do not widen every search.
 */
export class BandIndex {
  private readonly order: Int32Array;
  private readonly bottoms: Float32Array;
  private readonly tall: number[] = [];
  private static readonly TALL = 30;

  constructor(private readonly chars: PageChars) {
    const n = chars.count;
    const ordinary: number[] = [];
    for (let k = 0; k < n; k++) {
      if (chars.y1[k] - chars.y0[k] > BandIndex.TALL) this.tall.push(k);
      else ordinary.push(k);
    }
    const order = Int32Array.from(ordinary);
    order.sort((a, b) => chars.y0[a] - chars.y0[b]);
    const bottoms = new Float32Array(order.length);
    for (let i = 0; i < order.length; i++) bottoms[i] = chars.y0[order[i]];
    this.order = order;
    this.bottoms = bottoms;
  }

  /** Indices of the characters whose box meets the band lo..hi (y), in no particular order. */
  band(lo: number, hi: number): number[] {
    const out: number[] = [];
    const from = lowerBound(this.bottoms, lo - BandIndex.TALL);
    const { y0, y1 } = this.chars;
    for (let i = from; i < this.order.length && this.bottoms[i] <= hi; i++) {
      const k = this.order[i];
      if (y1[k] >= lo) out.push(k);
    }
    for (const k of this.tall) if (y1[k] >= lo && y0[k] <= hi) out.push(k);
    return out;
  }
}

function lowerBound(values: Float32Array, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
