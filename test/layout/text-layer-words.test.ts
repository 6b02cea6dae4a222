// An OCR layer's words as the OCR label rules read words: split at spaces, each with the union of its
// glyphs' boxes, one line per row (a line whose words step down the page is cut where they do).
import { describe, expect, it } from "vitest";
import type { Box, PageGeometry, PageText } from "../../src/document/model.js";
import { textLayerWords } from "../../src/layout/text-layer-words.js";
import type { OcrWord } from "../../src/ocr/page-ocr.js";

/** A page whose characters each get the box `boxAt(i)` (undefined: a generated space, no box). */
function page(text: string, lineEnds: number[], boxAt: (i: number) => Box | undefined) {
  const glyphBoxes = new Float32Array(text.length * 4).fill(Number.NaN);
  for (let i = 0; i < text.length; i++) {
    const b = boxAt(i);
    if (b) glyphBoxes.set([b.left, b.bottom, b.right, b.top], i * 4);
  }
  let start = 0;
  const lines = lineEnds.map((end) => {
    const line = {
      startUtf16: start,
      endUtf16: end,
      box: { left: 0, bottom: 0, right: 0, top: 0 },
      fontSize: 10,
    };
    start = end + 1;
    return line;
  });
  const pageText = { page: 1, text, lines } as unknown as PageText;
  const geometry = { page: 1, glyphBoxes } as unknown as PageGeometry;
  return { pageText, geometry };
}

const summary = (words: OcrWord[]) =>
  words.map((w) => [w.text, w.line, w.box.left, w.box.bottom, w.box.right, w.box.top]);

describe("a text layer's words", () => {
  it("splits lines into words with their glyphs' boxes, one line number per row", () => {
    // Line 1: "(13a) (13b)", the second label a row below the first (a layer that set a column of
    // labels as one line); line 2: "x = y".
    const text = "(13a) (13b)\nx = y";
    const { pageText, geometry } = page(text, [11, 17], (i) => {
      if (text[i] === " " || text[i] === "\n") return undefined;
      const x = 400 + i * 5;
      if (i < 5) return { left: x, bottom: 456, right: x + 4, top: 467 };
      if (i < 11) return { left: x, bottom: 430, right: x + 4, top: 441 };
      return { left: 100 + i * 5, bottom: 400, right: 104 + i * 5, top: 410 };
    });
    expect(summary(textLayerWords(pageText, geometry))).toEqual([
      ["(13a)", 0, 400, 456, 424, 467],
      ["(13b)", 1, 430, 430, 454, 441],
      ["x", 2, 160, 400, 164, 410],
      ["=", 2, 170, 400, 174, 410],
      ["y", 2, 180, 400, 184, 410],
    ]);
  });

  it("keeps words of one height on one line, and leaves out characters without a box", () => {
    const text = "a bc";
    const { pageText, geometry } = page(text, [4], (i) =>
      i === 3 ? undefined : { left: i * 10, bottom: 100 + i, right: i * 10 + 8, top: 110 + i },
    );
    expect(summary(textLayerWords(pageText, geometry))).toEqual([
      ["a", 0, 0, 100, 8, 110],
      ["bc", 0, 20, 102, 28, 112],
    ]);
  });
});
