/**
 * The words of a page's text layer as an OCR reading gives words: text, box and line. An invisible
 * OCR layer (a scanner's, a service's) is another engine's reading of the page image; its words can
 * hold rows this process's own reading of the image dropped, so the label rules look for spots in
 * both (ocr-equation-labels.ts). Nothing of what such a layer says is taken as the label: a spot's
 * label is what its crops read.
 */
import type { Box, PageGeometry, PageText } from "../document/model.js";
import type { OcrWord } from "../ocr/page-ocr.js";

/** The confidence given to a layer's words, which carry none (the rules do not weigh it). */
const LAYER_CONFIDENCE = 0;

/**
 * The words of the page's text lines, in order. A line's words that do not share a height with the
 * word before them (a layer that set a column of labels, row under row, as one line) start a line
 * of their own: the rules read a line as one row.
 */
export function textLayerWords(text: PageText, geometry: PageGeometry): OcrWord[] {
  const out: OcrWord[] = [];
  const g = geometry.glyphBoxes;
  const s = text.text;
  let lineNumber = -1;
  let previous: Box | undefined;
  const push = (word: string, box: Box) => {
    if (!previous || !sharesHeight(previous, box)) lineNumber++;
    previous = box;
    out.push({ text: word, box, confidence: LAYER_CONFIDENCE, line: lineNumber });
  };
  for (const line of text.lines) {
    previous = undefined;
    let start = -1;
    let box: Box | undefined;
    const end = Math.min(line.endUtf16, s.length);
    for (let i = line.startUtf16; i <= end; i++) {
      if (i === end || /\s/.test(s[i])) {
        if (start >= 0 && box) push(s.slice(start, i), box);
        start = -1;
        box = undefined;
        continue;
      }
      if (start < 0) start = i;
      const b = { left: g[i * 4], bottom: g[i * 4 + 1], right: g[i * 4 + 2], top: g[i * 4 + 3] };
      if (![b.left, b.bottom, b.right, b.top].every(Number.isFinite)) continue;
      box = box
        ? {
            left: Math.min(box.left, b.left),
            bottom: Math.min(box.bottom, b.bottom),
            right: Math.max(box.right, b.right),
            top: Math.max(box.top, b.top),
          }
        : b;
    }
  }
  return out;
}

/** Whether two boxes overlap over half the height of the shorter. */
function sharesHeight(a: Box, b: Box): boolean {
  const overlap = Math.min(a.top, b.top) - Math.max(a.bottom, b.bottom);
  return overlap >= Math.min(a.top - a.bottom, b.top - b.bottom) * 0.5;
}
