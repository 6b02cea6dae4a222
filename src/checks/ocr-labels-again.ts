/**
 * Labels a page's OCR reading missed, read again from strips down its columns' edges: a label it
 * misread as no label, or one whose display row it dropped whole. What is read again only joins the
 * reading to look for spots; a spot's label is still what its crops read (ocr-equations.ts).
 */
import type { Box } from "../document/model.js";
import { isLabelLikeWord, labelStrips } from "../layout/ocr-equation-labels.js";
import { OCR_DPI, type OcrWord } from "../ocr/page-ocr.js";

/** How much of the smaller of two boxes the other covers (0 to 1). */
function coveredShare(a: Box, b: Box): number {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.top, b.top) - Math.max(a.bottom, b.bottom);
  if (w <= 0 || h <= 0) return 0;
  const area = (x: Box) => (x.right - x.left) * (x.top - x.bottom);
  return (w * h) / Math.max(1e-9, Math.min(area(a), area(b)));
}

/**
 * The resolutions a dropped row's band is read at, in turn, until words stand beside its label: a
 * display's mathematics (a fraction beside a sum) the engine reads nothing of at the page's
 * resolution it often reads at a finer one, as it does a label's crops.
 */
export const BAND_DPI = [OCR_DPI, 400] as const;

/**
 * The resolutions a band beside a label refused for want of mathematics is read at, in turn: a
 * display whose `=` and `+` the page's reading took for dashes or dropped (a fraction beside a
 * product) the engine reads signs of at a finer one.
 */
export const MATH_BAND_DPI = [400, 600] as const;

/** Reads the words of a region of the page at a resolution; undefined once the deadline has passed. */
export type ReadWords = (box: Box, dpi: number) => Promise<OcrWord[] | undefined>;

/** A page's reading with the labels read again from the strips down its columns' edges. */
export interface ReadAgain {
  /** The reading's words, with the labels read again and the rows read with them. */
  words: OcrWord[];
  /** The labels read again: only spots at them are new. */
  labels: OcrWord[];
}

/**
 * The labels a page's reading missed, read again from strips down the columns' edges (a page-mode
 * reading of each strip alone). A label-like word of a strip where the reading has only words that
 * are no label (it read `(19b)` as `19b`) takes their place, on their line. One where the reading
 * has no word at all belongs to a row the reading dropped whole (a display it took for a picture):
 * its row's band is read again too (at a finer resolution when nothing is read beside the label), and
 * the label and the words beside it form a line of their own.
 * Only used to look for spots; a spot's label is still what its crops read.
 */
export async function readLabelsAgain(words: readonly OcrWord[], readWords: ReadWords): Promise<ReadAgain> {
  const replaced = new Set<OcrWord>();
  const added: OcrWord[] = [];
  const labels: OcrWord[] = [];
  let line = words.reduce((max, w) => Math.max(max, w.line), -1) + 1;
  const covering = (b: Box, list: readonly OcrWord[]) => list.filter((w) => coveredShare(w.box, b) >= 0.5);
  for (const strip of labelStrips(words)) {
    const read = await readWords(strip.box, OCR_DPI);
    if (read === undefined) break;
    for (const label of read) {
      if (!isLabelLikeWord(label.text) || covering(label.box, added).length > 0) continue;
      const under = covering(label.box, words);
      if (under.some((w) => isLabelLikeWord(w.text) || replaced.has(w))) continue;
      if (under.length > 0) {
        for (const w of under) replaced.add(w);
        const read = { ...label, line: under[0].line };
        added.push(read);
        labels.push(read);
        continue;
      }
      const h = label.box.top - label.box.bottom;
      const band: Box =
        strip.side === "right"
          ? {
              left: strip.column.left - h,
              right: label.box.left - 0.3 * h,
              bottom: label.box.bottom - 1.5 * h,
              top: label.box.top + 1.5 * h,
            }
          : {
              left: label.box.right + 0.3 * h,
              right: strip.column.right + h,
              bottom: label.box.bottom - 1.5 * h,
              top: label.box.top + 1.5 * h,
            };
      const middle = (b: Box) => (b.bottom + b.top) / 2;
      let row: OcrWord[] = [];
      for (const dpi of band.right > band.left ? BAND_DPI : []) {
        const beside = (await readWords(band, dpi)) ?? [];
        row = beside.filter(
          (w) => covering(w.box, words).length === 0 && Math.abs(middle(w.box) - middle(label.box)) <= h,
        );
        if (row.length > 0) break;
      }
      for (const w of row) added.push({ ...w, line });
      const own = { ...label, line };
      added.push(own);
      labels.push(own);
      line++;
    }
  }
  return { words: [...words.filter((w) => !replaced.has(w)), ...added], labels };
}
