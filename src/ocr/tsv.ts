/**
 * Tesseract's TSV output (`tessedit_create_tsv`) read into words per image: one row per page, block,
 * paragraph, line and word (levels 1 to 5), `page_num` counting the images of a batch from 1. Lines
 * are numbered in the order their rows come, as the engine's own iterator gives them.
 */
import type { OcrWordPx } from "./tesseract.js";

const LINE_LEVEL = "4";
const WORD_LEVEL = "5";

/** The words of each of `images` images, in order; rows naming another image are ignored. */
export function wordsFromTsv(tsv: string, images: number): OcrWordPx[][] {
  const out: OcrWordPx[][] = Array.from({ length: images }, () => []);
  const lines = new Array<number>(images).fill(-1);
  for (const row of tsv.split("\n")) {
    const cells = row.split("\t");
    if (cells.length < 12) continue;
    const [level, pageNum, , , , , left, top, width, height, conf] = cells;
    const image = Number(pageNum) - 1;
    if (!Number.isInteger(image) || image < 0 || image >= images) continue;
    if (level === LINE_LEVEL) {
      lines[image]++;
      continue;
    }
    if (level !== WORD_LEVEL) continue;
    // A word's text is the rest of the row (it holds no tab, but nothing is lost if it did).
    const text = cells.slice(11).join("\t").trim();
    const x0 = Number(left);
    const y0 = Number(top);
    const w = Number(width);
    const h = Number(height);
    if (text.length === 0 || ![x0, y0, w, h].every(Number.isFinite)) continue;
    out[image].push({
      text,
      x0,
      y0,
      x1: x0 + w,
      y1: y0 + h,
      confidence: Number(conf),
      line: Math.max(0, lines[image]),
    });
  }
  return out;
}
