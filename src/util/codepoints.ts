/**
 * Span offsets are Unicode code points; JavaScript strings index UTF-16 units. Every conversion
 * between the two goes through this index, built once per text: the positions of the astral
 * characters (two units, one code point) are all it needs.
 */

export class CodePointIndex {
  readonly text: string;
  /** Length of the text in code points. */
  readonly length: number;
  /** Code point offsets of the astral characters, ascending. */
  private readonly astralCp: Int32Array;

  constructor(text: string) {
    this.text = text;
    const astral: number[] = [];
    let cp = 0;
    for (let i = 0; i < text.length; i++, cp++) {
      const unit = text.charCodeAt(i);
      if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          astral.push(cp);
          i++;
        }
      }
    }
    this.astralCp = Int32Array.from(astral);
    this.length = text.length - astral.length;
  }

  /** UTF-16 offset of a code point offset (0..length). */
  toUtf16(cpOffset: number): number {
    return cpOffset + this.astralBefore(cpOffset);
  }

  /** Code point offset of a UTF-16 offset; an offset inside a surrogate pair counts as the pair's start. */
  toCodePoints(utf16Offset: number): number {
    // The number of astral characters wholly before utf16Offset: binary search on their UTF-16 positions.
    let lo = 0;
    let hi = this.astralCp.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const utf16 = this.astralCp[mid] + mid;
      if (utf16 + 2 <= utf16Offset) lo = mid + 1;
      else hi = mid;
    }
    const inside = lo < this.astralCp.length && this.astralCp[lo] + lo < utf16Offset;
    return utf16Offset - lo - (inside ? 1 : 0);
  }

  /** text[start:end] in code points, end exclusive. */
  slice(startCp: number, endCp: number): string {
    return this.text.slice(this.toUtf16(startCp), this.toUtf16(endCp));
  }

  private astralBefore(cpOffset: number): number {
    let lo = 0;
    let hi = this.astralCp.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.astralCp[mid] < cpOffset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Length of a string in code points. */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++, n++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return n;
}

/** True when the string holds a surrogate that is not part of a pair (not encodable as UTF-8). */
export function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDFFF]/u.test(text);
}
