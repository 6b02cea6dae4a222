// The layout rule for equation labels in an OCR reading (word boxes only): a short group at a
// column's edge, past a wide gap, beside an indented or centred row of mathematics, inside the text
// block. Enumerations, prose, table cells, page numbers and displays of words are refused.
import { describe, expect, it } from "vitest";
import { ocrPageLabels } from "../../src/layout/ocr-equation-labels.js";
import type { OcrWord } from "../../src/ocr/page-ocr.js";

const LEFT = 72;
const RIGHT = 540;
let line = 0;

/** One OCR line at baseline `y`: words given as [text, left, right], each 10 pt high. */
function row(y: number, words: [string, number, number][]): OcrWord[] {
  const n = line++;
  return words.map(([text, left, right]) => ({
    text,
    box: { left, bottom: y, right, top: y + 10 },
    confidence: 90,
    line: n,
  }));
}

/** A justified line of running text filling the column. */
function prose(y: number, last = "practice."): OcrWord[] {
  const texts = ["Each", "quantity", "below", "is", "defined", "on", "the", "same", "probability", last];
  const step = (RIGHT - LEFT) / texts.length;
  return row(
    y,
    texts.map((t, i) => [t, LEFT + i * step, LEFT + (i + 1) * step - 4] as [string, number, number]),
  );
}

function page(): OcrWord[] {
  line = 0;
  return [
    ...prose(700),
    ...prose(686),
    ...row(660, [
      ["F(x)", 250, 272],
      ["=", 276, 282],
      ["∫", 286, 292],
      ["f(t)", 296, 312],
      ["dt", 316, 326],
      ["(1)", 528, 540],
    ]),
    ...prose(634),
    ...row(620, [
      ["(2)", 90, 102],
      ["Suppose", 106, 146],
      ["the", 150, 164],
      ["sample", 168, 200],
      ["is", 204, 212],
      ["drawn", 216, 244],
      ["without", 248, 284],
      ["replacement", 288, 346],
    ]),
    ...prose(606),
    ...row(592, [
      ["Each", 72, 98],
      ["quantity", 103, 145],
      ["below", 150, 178],
      ["is", 183, 192],
      ["compared", 197, 245],
      ["with", 250, 272],
      ["the", 277, 292],
      ["others", 297, 330],
      ["shown", 335, 365],
      ["in", 370, 380],
      ["figure", 385, 420],
      ["and", 425, 445],
      ["table", 450, 478],
      ["as", 483, 494],
      ["in", 499, 509],
      ["(3)", 514, 540],
    ]),
    ...prose(578),
    ...row(550, [
      ["first", 200, 224],
      ["120", 300, 318],
      ["0.5", 400, 418],
      ["(4)", 528, 540],
    ]),
    ...row(536, [
      ["second", 200, 234],
      ["240", 300, 318],
      ["0.7", 400, 418],
      ["(8)", 528, 540],
    ]),
    ...prose(510),
    ...row(484, [
      ["for", 250, 265],
      ["every", 269, 295],
      ["sample", 299, 331],
      ["drawn", 335, 363],
      ["here", 367, 388],
      ["(6)", 528, 540],
    ]),
    ...prose(458),
    ...row(432, [
      ["(7)", 72, 84],
      ["a", 260, 266],
      ["+", 270, 276],
      ["b", 280, 286],
      ["=", 290, 296],
      ["c", 300, 306],
    ]),
    ...prose(406),
    ...prose(392),
    // A page number in the foot, far below the text: nothing beside it, no display above it.
    ...row(40, [["(5)", 528, 540]]),
    // A running head far above the text, beside words of mathematics: a head, not a display.
    ...row(760, [
      ["x", 250, 256],
      ["=", 260, 266],
      ["y", 270, 276],
      ["(9)", 528, 540],
    ]),
  ];
}

describe("equation labels in an OCR reading", () => {
  const found = ocrPageLabels(page());

  it("accepts a right label beside an indented display and a left (leqno) one", () => {
    expect(found.spots.map((s) => [s.printed, s.side])).toEqual([
      ["(1)", "right"],
      ["(7)", "left"],
    ]);
    const [one, seven] = found.spots;
    expect(one.equationBox).toMatchObject({ left: 250, right: 326 });
    expect(seven.equationBox).toMatchObject({ left: 260, right: 306 });
    // The crops to read the label again from hold the label and never reach the display.
    for (const crop of one.cropBoxes) {
      expect(crop.left).toBeGreaterThan(326);
      expect(crop.left).toBeLessThanOrEqual(528);
      expect(crop.right).toBeGreaterThanOrEqual(540);
    }
    expect(one.cropBoxes[1].top - one.cropBoxes[1].bottom).toBeGreaterThan(
      one.cropBoxes[0].top - one.cropBoxes[0].bottom,
    );
  });

  it("refuses enumerations, prose, table cells, page numbers and displays of words, with reasons", () => {
    const reasons = Object.fromEntries(found.sightings.map((s) => [s.label, s.reasons]));
    expect(Object.keys(reasons).sort()).toEqual(["2", "3", "4", "5", "6", "8", "9"]);
    expect(reasons["2"]).toEqual(["no-display"]);
    expect(reasons["3"]).toEqual(["no-display"]);
    expect(reasons["4"]).toContain("tabular");
    expect(reasons["8"]).toContain("tabular");
    expect(reasons["5"]).toEqual(["no-display"]);
    expect(reasons["9"]).toEqual(["page-margin"]);
    expect(reasons["6"]).toContain("no-math");
  });

  it("keeps stacked labels of an aligned display apart, and joins a label read in two overlapping pieces", () => {
    line = 0;
    const words = [
      ...prose(700),
      ...prose(686),
      ...row(660, [
        ["a", 250, 256],
        ["=", 260, 266],
        ["b", 270, 276],
        ["(1a)", 524, 540],
      ]),
      ...row(644, [
        ["c", 250, 256],
        ["=", 260, 266],
        ["d", 270, 276],
        ["(1b)", 524, 540],
      ]),
      ...row(618, [
        ["x", 250, 256],
        ["+", 260, 266],
        ["y", 270, 276],
        ["2", 530, 534],
      ]),
      ...row(613, [
        ["z", 250, 256],
        ["=", 260, 266],
        ["w", 270, 276],
        ["2)", 528, 540],
      ]),
      ...prose(590),
      ...prose(576),
    ];
    expect(ocrPageLabels(words).spots.map((s) => s.printed)).toEqual(["(1a)", "(1b)", "2 2)"]);
  });

  it("reads each column of a two-column page apart, however OCR joined their lines", () => {
    line = 0;
    const left = ["Each", "quantity", "below", "is", "defined", "on", "the", "same"];
    const right = ["space", "and", "the", "arguments", "hold", "for", "every", "size"];
    const twoColumn = (y: number) =>
      row(y, [
        ...left.map((t, i) => [t, 72 + i * 28, 96 + i * 28] as [string, number, number]),
        ...right.map((t, i) => [t, 312 + i * 28, 336 + i * 28] as [string, number, number]),
      ]);
    const words = [
      ...twoColumn(700),
      ...twoColumn(686),
      ...twoColumn(672),
      // A display in the left column, its label at that column's right edge; prose goes on at the right.
      ...row(650, [
        ["a", 130, 136],
        ["=", 140, 146],
        ["b", 150, 156],
        ["(3)", 284, 296],
        ...right.map((t, i) => [t, 312 + i * 28, 336 + i * 28] as [string, number, number]),
      ]),
      ...twoColumn(636),
      ...twoColumn(622),
      ...twoColumn(608),
    ];
    expect(ocrPageLabels(words).spots.map((s) => [s.printed, s.labelBox.right])).toEqual([["(3)", 296]]);
  });

  it("takes a label alone on its line as closing the display above it, one that fills its line", () => {
    line = 0;
    const words = [
      ...prose(700),
      ...prose(686),
      ...row(660, [
        ["u(t)", 72, 92],
        ["=", 96, 102],
        ["a", 106, 112],
        ["+", 116, 122],
        ["b", 126, 132],
        ["c", 460, 510],
      ]),
      ...row(646, [["(11)", 524, 540]]),
      ...prose(620),
      // The last short line of a paragraph, then a page number two lines under it: no display.
      ...row(606, [
        ["where", 72, 98],
        ["x", 102, 108],
        ["=", 112, 118],
        ["1.", 122, 130],
      ]),
      ...row(570, [["(12)", 524, 540]]),
    ];
    const found = ocrPageLabels(words);
    expect(found.spots.map((s) => s.printed)).toEqual(["(11)"]);
    expect(found.sightings.map((s) => [s.label, s.reasons])).toEqual([["12", ["no-display"]]]);
  });

  it("finds nothing on a page without running text", () => {
    line = 0;
    expect(
      ocrPageLabels(
        row(660, [
          ["x", 250, 256],
          ["=", 260, 266],
          ["(1)", 528, 540],
        ]),
      ),
    ).toEqual({
      spots: [],
      sightings: [
        {
          label: "1",
          printed: "(1)",
          labelBox: { left: 528, bottom: 660, right: 540, top: 670 },
          reasons: ["no-display"],
        },
      ],
    });
  });
});
