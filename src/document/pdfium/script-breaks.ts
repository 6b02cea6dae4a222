/** Where a raised, smaller run meets ordinary text: pure, over a page's per-character arrays. */
import { CHAR_FLAG_GENERATED } from "../model.js";

/**
 * Offsets where a raised, smaller run (a footnote mark, an exponent, an ordinal's letters) meets
 * ordinary text with nothing between them, as in "examined.¹Earlier" or a footnote's "60Theorem".
 * The text keeps them glued; matching may read a word boundary there.
 */
export function findScriptBreaks(
  units: Uint16Array,
  n: number,
  glyphBoxes: Float32Array,
  fontSizes: Float32Array,
  flags: Uint8Array,
): number[] {
  const breaks: number[] = [];
  for (let i = 1; i < n; i++) {
    if (flags[i] & CHAR_FLAG_GENERATED || flags[i - 1] & CHAR_FLAG_GENERATED) continue;
    if (units[i] === 32 || units[i - 1] === 32 || units[i] === 10 || units[i - 1] === 10) continue;
    const a = fontSizes[i - 1];
    const b = fontSizes[i];
    if (!(a > 0 && b > 0)) continue;
    const small = a < b ? i - 1 : i;
    const large = a < b ? i : i - 1;
    if (fontSizes[small] > fontSizes[large] * 0.8) continue;
    // Raised: the small glyph's foot stands clearly above the large one's.
    if (glyphBoxes[small * 4 + 1] > glyphBoxes[large * 4 + 1] + 0.25 * fontSizes[large]) breaks.push(i);
  }
  return breaks;
}
