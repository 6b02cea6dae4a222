/**
 * Accents set apart from their letter. TeX's OT1 fonts draw an accent as a glyph of its own before
 * the letter (`Cs¨org˝o`, `Gin´e`), and other producers put it after; Unicode text may carry a
 * combining mark after its letter. These rules turn each into the combining mark that belongs to the
 * letter, so canonical composition (NFC) can make one character of the pair.
 */

/** Spacing accents and the combining mark each stands for. */
const SPACING_ACCENTS = new Map<number, number>([
  [0x00a8, 0x0308], // ¨ diaeresis
  [0x02dd, 0x030b], // ˝ double acute
  [0x00b4, 0x0301], // ´ acute
  [0x0060, 0x0300], // ` grave
  [0x02c6, 0x0302], // ˆ circumflex
  [0x02dc, 0x0303], // ˜ tilde
  [0x00af, 0x0304], // ¯ macron
  [0x02d8, 0x0306], // ˘ breve
  [0x02c7, 0x030c], // ˇ caron
  [0x02d9, 0x0307], // ˙ dot above
  [0x02da, 0x030a], // ˚ ring above
  [0x00b8, 0x0327], // ¸ cedilla
  [0x02db, 0x0328], // ˛ ogonek
]);

/** Dotless letters TeX sets under an accent (`\'{\i}`): with a mark they are the dotted letter. */
const DOTLESS = new Map<number, string>([
  [0x0131, "i"],
  [0x0237, "j"],
]);

const LETTER = /^\p{L}$/u;

/** The combining mark a code point stands for (a spacing accent or a combining mark itself), else -1. */
export function accentMark(cp: number): number {
  const spacing = SPACING_ACCENTS.get(cp);
  if (spacing !== undefined) return spacing;
  return isCombiningMark(cp) ? cp : -1;
}

/**
 * Whether a code point is one of the combining marks that compose onto Latin, Greek and Cyrillic
 * letters (the combining diacritical mark blocks; not a spacing accent).
 */
export function isCombiningMark(cp: number): boolean {
  return (
    (cp >= 0x0300 && cp <= 0x036f) ||
    (cp >= 0x1ab0 && cp <= 0x1aff) ||
    (cp >= 0x1dc0 && cp <= 0x1dff) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0xfe20 && cp <= 0xfe2f)
  );
}

export function isLetter(cp: number): boolean {
  return LETTER.test(String.fromCodePoint(cp));
}

/**
 * The letter `base` (one code point, or a letter and its marks) with `marks` composed onto it, or
 * undefined when canonical composition gives no shorter form (the mark has no precomposed letter).
 */
export function composeAccent(base: string, marks: readonly number[]): string | undefined {
  const first = base.codePointAt(0) as number;
  const letter = DOTLESS.get(first) ?? String.fromCodePoint(first);
  const decomposed = letter + base.slice(first > 0xffff ? 2 : 1) + String.fromCodePoint(...marks);
  const composed = decomposed.normalize("NFC");
  return countCodePoints(composed) < countCodePoints(decomposed) ? composed : undefined;
}

function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * The text with every accent next to its letter composed onto it (the accent before its letter
 * first, as TeX sets it, else after it), then NFC. No offsets: for saying that a mismatch would match
 * with accents recombined, where the matching itself stays character-exact.
 */
export function recombineAccents(text: string): string {
  const cps = Array.from(text, (ch) => ch.codePointAt(0) as number);
  const out: string[] = [];
  for (let k = 0; k < cps.length; k++) {
    const mark = accentMark(cps[k]);
    if (mark >= 0) {
      const next = cps[k + 1];
      const before =
        !isCombiningMark(cps[k]) && next !== undefined && isLetter(next)
          ? composeAccent(String.fromCodePoint(next), [mark])
          : undefined;
      if (before) {
        out.push(before);
        k++;
        continue;
      }
      const previous = out[out.length - 1];
      const after =
        previous !== undefined && isLetter(previous.codePointAt(0) as number)
          ? composeAccent(previous, [mark])
          : undefined;
      if (after) {
        out[out.length - 1] = after;
        continue;
      }
    }
    out.push(String.fromCodePoint(cps[k]));
  }
  return out.join("").normalize("NFC");
}

/** Letters and digits with their marks removed and dotless letters dotted: what a skeleton compares. */
export function baseLetters(ch: string): string {
  const dotless = DOTLESS.get(ch.codePointAt(0) as number);
  if (dotless) return dotless;
  return ch.normalize("NFD").replace(/\p{M}/gu, "");
}
