/**
 * When the readings of an equation label's crops settle it: the order the crops are read in, and the
 * rule that accepts a label only when two whole readings agree and nothing read says otherwise.
 */
import { isEquationLabel } from "../layout/labels.js";
import { OCR_DPI } from "../ocr/page-ocr.js";

/**
 * The readings of a label's crops, in order, as (crop framing, resolution): the tight crop at three
 * resolutions, then the wider one (OCR drops a parenthesis or a letter now and then, and a wide crop
 * takes in more of what stands around the label).
 */
export const LABEL_READINGS = [
  { crop: 0, dpi: OCR_DPI },
  { crop: 0, dpi: 400 },
  { crop: 0, dpi: 350 },
  { crop: 1, dpi: 400 },
  { crop: 1, dpi: 600 },
] as const;
export const LABEL_READ_DPI = [...new Set(LABEL_READINGS.map((r) => r.dpi))];
/** Readings taken before a label is accepted: two crops can drop the same letter. */
const MIN_LABEL_READINGS = 3;

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
  const whole: string[] = [];
  const seen = new Set<string>();
  for (const r of readings) {
    const text = r.trim();
    const core = labelCore(text);
    if (core === undefined) continue;
    seen.add(core);
    if (text === `(${core})`) whole.push(core);
  }
  if (seen.size > 1) return { state: "conflict" };
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

/** The label a reading gives, its parentheses (one may be missing) taken off. */
function labelCore(text: string): string | undefined {
  const core = /^\(?([^()]+?)\)?$/.exec(text)?.[1];
  return core !== undefined && isEquationLabel(core) ? core : undefined;
}
