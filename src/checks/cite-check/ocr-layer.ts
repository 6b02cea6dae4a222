/**
 * An OCR reading of a page as a text layer: words in OCR reading order, one space between the
 * words of a line and a line break between lines; every unit of a word carries the whole word's
 * box, so a quote that touches a word needs all of that word inside the citation box.
 */
import type { OcrPage } from "../../ocr/page-ocr.js";
import type { TextLayer } from "./text-layer.js";

export function ocrLayer(ocr: OcrPage): TextLayer {
  const parts: string[] = [];
  let length = 0;
  const spans: { start: number; end: number; word: number }[] = [];
  ocr.words.forEach((word, i) => {
    if (i > 0) {
      parts.push(word.line === ocr.words[i - 1].line ? " " : "\n");
      length++;
    }
    spans.push({ start: length, end: length + word.text.length, word: i });
    parts.push(word.text);
    length += word.text.length;
  });
  const boxes = new Float64Array(length * 4).fill(Number.NaN);
  const groups = new Int32Array(length).fill(-1);
  for (const { start, end, word } of spans) {
    const b = ocr.words[word].box;
    for (let k = start; k < end; k++) {
      boxes[k * 4] = b.left;
      boxes[k * 4 + 1] = b.bottom;
      boxes[k * 4 + 2] = b.right;
      boxes[k * 4 + 3] = b.top;
      groups[k] = word;
    }
  }
  return { kind: "ocr", text: parts.join(""), boxes, groups, level: "ocr_word" };
}
