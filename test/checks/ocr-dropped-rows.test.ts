// A row the page's OCR reading dropped whole (a display it took for a picture) is read again: the
// strips down the column's edges show its label where the reading has no word, and its band gives
// the words beside it; both come back on a line of their own. A label the reading misread as no
// label (`4b` for `(4b)`) is replaced on its line. A label the reading already holds, or a word that
// is no label, brings nothing back. The reader here is a stand-in for the OCR engine
// that answers from a fixed page; the rules decide what to ask it and what to keep.
import { describe, expect, it } from "vitest";
import { BAND_DPI, readLabelsAgain } from "../../src/checks/ocr-labels-again.js";
import type { Box } from "../../src/document/model.js";
import type { OcrWord } from "../../src/ocr/page-ocr.js";

const LEFT = 72;
const RIGHT = 540;

const word = (text: string, left: number, bottom: number, right: number, line: number): OcrWord => ({
  text,
  box: { left, bottom, right, top: bottom + 10 },
  confidence: 90,
  line,
});

function prose(y: number, line: number): OcrWord[] {
  const texts = ["Each", "quantity", "below", "is", "defined", "on", "the", "same", "probability", "space."];
  const step = (RIGHT - LEFT) / texts.length;
  return texts.map((t, i) => word(t, LEFT + i * step, y, LEFT + (i + 1) * step - 4, line));
}

/** Everything printed on the page, as an engine reading any region of it would see it. */
const printed: OcrWord[] = [
  word("(4a)", 510, 600, 532, 0),
  word("(4b)", 510, 580, 532, 0),
  word("h", 250, 580, 258, 0),
  word("=", 262, 580, 270, 0),
  word("wx+b", 274, 580, 320, 0),
  word("note", 510, 560, 530, 0),
];
/** The words of `printed` whose middle lies in the box. */
const reader = (asked: Box[]) => async (box: Box) => {
  asked.push(box);
  return printed.filter((w) => {
    const x = (w.box.left + w.box.right) / 2;
    const y = (w.box.bottom + w.box.top) / 2;
    return x > box.left && x < box.right && y > box.bottom && y < box.top;
  });
};

describe("rows the page's reading dropped", () => {
  const reading = [
    ...[700, 686, 672].flatMap((y, i) => prose(y, i)),
    // The reading holds (4a) and its row, and dropped the (4b) row whole.
    word("u", 250, 600, 258, 3),
    word("=", 262, 600, 270, 3),
    word("(4a)", 510, 600, 532, 3),
    ...[500, 486].flatMap((y, i) => prose(y, 4 + i)),
  ];

  it("reads the dropped row's label and the words beside it, on a line of their own", async () => {
    const asked: Box[] = [];
    const again = await readLabelsAgain(reading, reader(asked));
    const back = again.words.slice(reading.length);
    expect(back.map((w) => w.text)).toEqual(["h", "=", "wx+b", "(4b)"]);
    expect(new Set(back.map((w) => w.line)).size).toBe(1);
    expect(back[0].line).toBeGreaterThan(Math.max(...reading.map((w) => w.line)));
    expect(again.words.slice(0, reading.length)).toEqual(reading);
    expect(again.labels.map((w) => w.text)).toEqual(["(4b)"]);
    // Two strips (right and left edge) and one band: the row beside (4b).
    expect(asked).toHaveLength(3);
  });

  it("puts a label the reading misread as no label in its place, on its line", async () => {
    const misread = word("4b", 512, 580, 530, 9);
    const row = [word("h", 250, 580, 258, 9), word("=", 262, 580, 270, 9), misread];
    const asked: Box[] = [];
    const again = await readLabelsAgain([...reading, ...row], reader(asked));
    expect(again.words).not.toContain(misread);
    expect(again.labels.map((w) => [w.text, w.line])).toEqual([["(4b)", 9]]);
    expect(again.words.filter((w) => w.line === 9).map((w) => w.text)).toEqual(["h", "=", "(4b)"]);
    // No band is read: the row is in the reading.
    expect(asked).toHaveLength(2);
  });

  it("brings nothing back when the reading holds every label", async () => {
    const complete = [...reading, word("(4b)", 510, 580, 532, 9)];
    const again = await readLabelsAgain(complete, reader([]));
    expect(again.labels).toEqual([]);
    expect(again.words).toEqual(complete);
  });

  it("reads the band again at a finer resolution when nothing beside the label is read at the page's", async () => {
    // The engine reads the row's mathematics only at 400 dpi; at 300 dpi only what the reading holds.
    const asked: number[] = [];
    const fine = async (box: Box, dpi: number) => {
      asked.push(dpi);
      const words = await reader([])(box);
      const row = box.top - box.bottom < 100 && box.right < 510;
      return row && dpi < 400 ? [] : words;
    };
    const again = await readLabelsAgain(reading, fine);
    expect(again.words.slice(reading.length).map((w) => w.text)).toEqual(["h", "=", "wx+b", "(4b)"]);
    // The right strip at the page's resolution, the band at it and at the finer one, the left strip.
    expect(asked).toEqual([BAND_DPI[0], BAND_DPI[0], BAND_DPI[1], BAND_DPI[0]]);
    expect(BAND_DPI[1]).toBeGreaterThan(BAND_DPI[0]);
    // Read at no resolution, the label comes back alone: its spot has nothing beside it to judge.
    const none = await readLabelsAgain(reading, async (box, dpi) => (box.right < 510 ? [] : fine(box, dpi)));
    expect(none.words.slice(reading.length).map((w) => w.text)).toEqual(["(4b)"]);
  });

  it("stops when a strip cannot be read (the deadline)", async () => {
    const again = await readLabelsAgain(reading, async () => undefined);
    expect(again).toEqual({ words: reading, labels: [] });
  });
});
