/**
 * When the readings of an equation label's crops settle it: the order the crops are read in, and the
 * rule that accepts a label only when two whole readings agree and nothing read says otherwise.
 */
import { isEquationLabel } from "../layout/labels.js";
import { OCR_DPI } from "../ocr/page-ocr.js";

/**
 * The readings of a label's crops, in order, as (crop framing, resolution): the tight crop at three
 * resolutions, then the wider one (OCR drops a parenthesis or a letter now and then, and a wide crop
 * takes in more of what stands around the label), then the tight and the widest at the finest resolution.
 */
export const LABEL_READINGS = [
  { crop: 0, dpi: OCR_DPI },
  { crop: 0, dpi: 400 },
  { crop: 0, dpi: 350 },
  { crop: 1, dpi: 400 },
  { crop: 1, dpi: 600 },
  // Read only when the five before settle nothing: a thin bracket of a coarse scan that the engine
  // drops at every resolution up to 500 dpi (`9)` read for `(9)`) it may read at 600 in any crop.
  { crop: 0, dpi: 600 },
  { crop: 2, dpi: 600 },
] as const;
export const LABEL_READ_DPI = [...new Set(LABEL_READINGS.map((r) => r.dpi))];
/** Readings taken before a label is accepted: two crops can drop the same letter. */
export const MIN_LABEL_READINGS = 3;

export type Agreement = { state: "open" } | { state: "agreed"; label: string } | { state: "conflict" };

/**
 * What the readings so far say: a label when two of them give it whole, printed `(label)`, after
 * three readings at least; a conflict when any reading gives another label, whole or with a
 * parenthesis dropped (`(13b)` read once and `(13h)` twice is no label: the engine cannot tell the
 * letters apart; `(4.9)` read twice and `(4.9b)` once lost a letter), or when the page's own reading
 * of the spot holds letters other than the label's (`(19b)` where the crops read `(19h)`: a page
 * reading of digits alone says nothing, as it often misreads them); else more reading.
 */
export function agreement(readings: readonly string[], printed: string): Agreement {
  const { cores, whole } = readCores(readings);
  if (new Set(cores).size > 1) return { state: "conflict" };
  if (whole.length < 2 || readings.length < MIN_LABEL_READINGS) return { state: "open" };
  const label = whole[0];
  const letters = (text: string) => text.replace(/[^A-Za-z]/g, "");
  for (const word of printed.split(/\s+/)) {
    const core = labelCore(word);
    if (core !== undefined && letters(core) !== "" && letters(core) !== letters(label))
      return { state: "conflict" };
  }
  return { state: "agreed", label };
}

/** The labels the readings give, in order: every one, and those read whole, printed `(label)`. */
function readCores(readings: readonly string[]): { cores: string[]; whole: string[] } {
  const cores: string[] = [];
  const whole: string[] = [];
  for (const r of readings) {
    const text = r.trim();
    const core = labelCore(text);
    if (core === undefined) continue;
    cores.push(core);
    if (text === `(${core})`) whole.push(core);
  }
  return { cores, whole };
}

/** The label a reading gives, its parentheses (one may be missing) taken off. */
function labelCore(text: string): string | undefined {
  const core = /^\(?([^()]+?)\)?$/.exec(text)?.[1];
  return core !== undefined && isEquationLabel(core) ? core : undefined;
}

/** A label that ends in a letter after a digit (`13b`, `3.6b`): one of a lettered sequence. */
const LETTERED = /^(.*\d)([a-z])$/;

/**
 * The label of a spot whose readings disagree on its suffix letter alone, from the labels beside it:
 * OCR can confuse look-alike letters (`b` read as `h` or `D`) where it reads every digit alike, and
 * lettered labels run in order (`(13a)`, `(13b)`, `(13c)`). The label is the one a reading gave whole
 * whose letter follows the label agreed just above it in the same column, or precedes the one agreed
 * just below it, provided every reading gives the same digits (with some letter, or none) and no other
 * label read fits the neighbours. The page reading's word at the spot is one reading more of the
 * letter (it may hold the `b` every crop took for an `h`), never of the digits: the neighbour carries
 * those (`(13a)` above `(13b)`), and a page reading misreads digits a crop reads (`(80)` where every
 * crop reads `(28…)` below an agreed `(28a)`), which agreement() does not weigh either. Undefined
 * when that does not settle it.
 */
export function labelInSequence(
  readings: readonly string[],
  neighbours: { above?: string; below?: string },
  /** The page reading's words at the spot. */
  pageWords: readonly string[] = [],
): string | undefined {
  const { cores, whole } = readCores(readings);
  const stems = readings.map(readingStem).filter((s): s is string => s !== undefined);
  const candidates = new Set(whole);
  for (const w of pageWords) {
    const read = pageWordLabel(w);
    if (read?.whole) candidates.add(read.core);
  }
  const fits = [...candidates].filter((label) => {
    const m = LETTERED.exec(label);
    if (!m) return false;
    const [, stem, letter] = m;
    const code = letter.charCodeAt(0);
    const before = code > 97 ? `${stem}${String.fromCharCode(code - 1)}` : undefined;
    const after = code < 122 ? `${stem}${String.fromCharCode(code + 1)}` : undefined;
    const ordered =
      (before !== undefined && neighbours.above === before) ||
      (after !== undefined && neighbours.below === after) ||
      (letter === "a" && opensAfter(stem, neighbours.above));
    // Every crop reading is this label, the same digits with another letter, or the digits alone,
    // and two of them at least give those digits (`(24D)` read seven times, an upper-case letter no
    // label takes, still reads the digits).
    // A reading of one digit in the letter's place (`(4.92)` for `(4.9a)`) read the letter as a
    // digit when the label is read whole more often than every such reading together.
    const asDigit = cores.filter((c) => c.length === stem.length + 1 && c.startsWith(stem) && /\d$/.test(c));
    const letterAsDigit = whole.filter((w) => w === label).length > asDigit.length;
    const ofStem = (c: string) => c === stem || (letterAsDigit && asDigit.includes(c));
    const sameStem = cores.every((c) => ofStem(c) || ANY_LETTER_AFTER.exec(c)?.[1] === stem);
    const stemsRead = stems.filter((s) => s === stem).length >= 2 && stems.every(ofStem);
    return ordered && sameStem && stemsRead;
  });
  return fits.length === 1 ? fits[0] : undefined;
}

/**
 * Whether a run of lettered labels of this stem may open right after `above`: the label of the
 * number before (`(3.7)` or a lettered `(3.7c)` above `(3.8a)`; `(12)` above `(13a)`). A run opens at
 * `a`, and numbers run in order.
 */
function opensAfter(stem: string, above: string | undefined): boolean {
  if (above === undefined) return false;
  const m = /^(.*?)(\d+)$/.exec(stem);
  if (!m || Number(m[2]) < 2) return false;
  const previous = `${m[1]}${Number(m[2]) - 1}`;
  return above === previous || LETTERED.exec(above)?.[1] === previous;
}

/** The digits a crop reading gives before a letter, or alone (`(24D)`, `(24)`: `24`), parentheses optional. */
function readingStem(reading: string): string | undefined {
  const core = /^\(?([^()]+?)\)?$/.exec(reading.trim())?.[1];
  if (core === undefined) return undefined;
  const lettered = ANY_LETTER_AFTER.exec(core);
  if (lettered && isEquationLabel(lettered[1])) return lettered[1];
  return isEquationLabel(core) && /\d$/.test(core) ? core : undefined;
}

/** The label a page reading's word gives (trailing punctuation taken off), and whether it gives it whole. */
function pageWordLabel(word: string): { core: string; whole: boolean } | undefined {
  const text = word.trim().replace(/[.,;:]$/, "");
  const core = labelCore(text);
  return core === undefined ? undefined : { core, whole: text === `(${core})` };
}

/** Digits and one letter of either case after them (`13h`, `22D`): how OCR reads a lettered label. */
const ANY_LETTER_AFTER = /^(.*\d)([A-Za-z])$/;

/** A label's shape: each run of digits as `9`, each letter as `a` (`3.4` and `12.10` are both `9.9`). */
function shape(label: string): string {
  return label.replace(/\d+/g, "9").replace(/[A-Za-z]/g, "a");
}

/**
 * The dotted label a spot's readings give when they disagree only in dots some of them dropped
 * (`(3.4)` read whole five times, `(34)` once): OCR loses a dot, a glyph a few pixels wide, where it
 * reads every digit alike. It is the label read whole most often, twice at least and more often than
 * the same digits without its dots; every reading, and the page reading's words at the spot, give
 * it or its digits alone; and a label of the document agreed elsewhere has the same shape (`(2.7)`
 * beside `(3.4)`), so that dots are how the document numbers its equations: one numbered `(1)` to
 * `(40)` gives no such support, and a stray mark read as a dot there is no label. The label and the
 * one numbered like it; undefined when that does not settle it.
 */
export function labelWithDroppedDots(
  readings: readonly string[],
  agreedElsewhere: readonly string[],
  pageWords: readonly string[] = [],
): { label: string; numberedLike: string } | undefined {
  const { cores, whole } = readCores(readings);
  for (const w of pageWords) {
    const read = pageWordLabel(w);
    if (read) cores.push(read.core);
  }
  const label = dottedLabel(cores, whole);
  if (label === undefined) return undefined;
  const bare = label.replace(/\./g, "");
  const count = (l: string) => whole.filter((w) => w === l).length;
  if (count(label) < 2 || count(label) <= count(bare)) return undefined;
  const form = shape(label);
  const numberedLike = agreedElsewhere.find((other) => other !== label && shape(other) === form);
  return numberedLike === undefined ? undefined : { label, numberedLike };
}

/** Whether readings in conflict may yet be settled by labelWithDroppedDots (once the document is read). */
export function mayHaveDroppedDots(readings: readonly string[]): boolean {
  const { cores, whole } = readCores(readings);
  return dottedLabel(cores, whole) !== undefined;
}

/** The one dotted label read whole, when every label read is it or its digits without the dots. */
function dottedLabel(cores: readonly string[], whole: readonly string[]): string | undefined {
  const dotted = [...new Set(whole)].filter((label) => label.includes("."));
  if (dotted.length !== 1) return undefined;
  const bare = dotted[0].replace(/\./g, "");
  return cores.every((c) => c === dotted[0] || c === bare) ? dotted[0] : undefined;
}
