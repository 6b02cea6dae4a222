// The layout rule for equation labels in an OCR reading (word boxes only): a short group at a
// column's edge, past a wide gap, beside an indented or centred row of mathematics, inside the text
// block. Enumerations, prose, table cells, page numbers and displays of words are refused.
import { describe, expect, it } from "vitest";
import { documentBlockTop, ocrPageLabels, ocrTextBlock } from "../../src/layout/ocr-equation-labels.js";
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
    // At a word space from the line's last words: judged as a label, and refused as prose.
    expect(reasons["3"]).toEqual(expect.arrayContaining(["no-display", "prose-beside-label"]));
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

  it("takes a display opening a page's body at the document's text block top, and still refuses a running head", () => {
    line = 0;
    const full = [...prose(700), ...prose(686), ...prose(672), ...prose(658)];
    const other = [...full];
    line = 0;
    const opening = [
      ...row(760, [
        ["x", 250, 256],
        ["=", 260, 266],
        ["y", 270, 276],
        ["(9)", 528, 540],
      ]),
      ...row(700, [
        ["V", 250, 256],
        ["=", 260, 266],
        ["a", 270, 276],
        ["+", 280, 286],
        ["b", 290, 296],
        ["(12)", 524, 540],
      ]),
      ...prose(650),
      ...prose(636),
      ...prose(622),
    ];
    // The page alone: the display stands far above its first line of running text.
    expect(ocrPageLabels(opening).spots).toEqual([]);
    const blockTop = documentBlockTop([full, other, opening].map(ocrTextBlock));
    expect(blockTop).toBe(710);
    const found = ocrPageLabels(opening, { blockTop });
    expect(found.spots.map((s) => s.printed)).toEqual(["(12)"]);
    expect(found.sightings.map((s) => [s.label, s.reasons])).toEqual([["9", ["page-margin"]]]);
    // One page's top alone, or tops no two pages share, say nothing.
    expect(documentBlockTop([ocrTextBlock(full), undefined])).toBeUndefined();
    expect(documentBlockTop([full, opening].map(ocrTextBlock))).toBeUndefined();
  });

  it("takes a display opening the page's body from its own rows, in a chain down to the running text", () => {
    line = 0;
    const opening = [
      // A running head, farther from the body than a display's spacing.
      ...row(790, [
        ["Sums", 250, 280],
        ["+", 284, 290],
        ["(9)", 528, 540],
      ]),
      // Three rows of an aligned display, about 0.5 em apart, the last 1.2 em above the text.
      ...row(762, [
        ["f(x)", 250, 272],
        ["=", 276, 282],
        ["a+b", 286, 310],
        ["(1.4)", 520, 540],
      ]),
      ...row(747, [
        ["y", 260, 266],
        ["=", 276, 282],
        ["∑wx", 286, 312],
        ["(1.5)", 520, 540],
      ]),
      ...row(732, [
        ["g(x)", 250, 272],
        ["=", 276, 282],
        ["√c", 286, 300],
        ["(1.6)", 520, 540],
      ]),
      ...prose(710),
      ...prose(696),
      ...prose(682),
    ];
    const found = ocrPageLabels(opening);
    expect(found.spots.map((s) => s.printed)).toEqual(["(1.4)", "(1.5)", "(1.6)"]);
    expect(found.sightings.map((s) => [s.label, s.reasons])).toEqual([["9", ["page-margin"]]]);
    // The same display 2 em above the text: no chain, and far above its first line.
    const apart = opening.map((w) =>
      w.box.bottom >= 732 && w.box.bottom < 790
        ? { ...w, box: { ...w.box, bottom: w.box.bottom + 8, top: w.box.top + 8 } }
        : w,
    );
    expect(ocrPageLabels(apart).spots.map((s) => s.printed)).toEqual(["(1.6)"]);
  });

  it("takes a display that fills its line up to half a quad from its label, never a line of prose", () => {
    line = 0;
    const words = [
      ...prose(700),
      ...prose(686),
      ...row(660, [
        ["hij", 74, 92],
        ["=", 96, 102],
        ["252", 106, 130],
        [">", 134, 140],
        ["(=n)", 144, 170],
        ["+Va?", 174, 400],
        ["+af+ylogd", 404, 530],
        ["(5)", 535, 547],
      ]),
      ...prose(634),
      ...prose(620),
    ];
    expect(ocrPageLabels(words).spots.map((s) => [s.printed, s.equationBox.right])).toEqual([["(5)", 530]]);
  });

  it("counts a sign taller than the line (an integral read as `/`) as mathematics", () => {
    line = 0;
    const words = [
      ...prose(700),
      ...prose(686),
      ...row(660, [
        ["hij", 250, 262],
        ["-", 266, 270],
        ["eM", 290, 304],
        ["dt", 308, 318],
        ["(10)", 524, 540],
      ]),
      // The integral, read as its own line, two lines high.
      ...row(652, [["/", 274, 284]]).map((w) => ({ ...w, box: { ...w.box, top: 676 } })),
      ...prose(634),
      ...prose(620),
    ];
    expect(ocrPageLabels(words).spots.map((s) => s.printed)).toEqual(["(10)"]);
  });

  it("judges a display in one column apart from a table in the other", () => {
    line = 0;
    const left = ["Each", "quantity", "below", "is", "defined", "on", "the", "same"];
    const right = ["space", "and", "the", "arguments", "hold", "for", "every", "size"];
    const twoColumn = (y: number) =>
      row(y, [
        ...left.map((t, i) => [t, 72 + i * 28, 96 + i * 28] as [string, number, number]),
        ...right.map((t, i) => [t, 312 + i * 28, 336 + i * 28] as [string, number, number]),
      ]);
    const cells = (y: number, a: string, b: string, c: string) =>
      row(y, [
        [a, 80, 110],
        [b, 160, 180],
        [c, 240, 260],
      ]);
    const words = [
      ...twoColumn(700),
      ...twoColumn(686),
      ...twoColumn(672),
      ...cells(650, "Model", "Estimate", "Error"),
      ...row(644, [
        ["f(x)", 380, 400],
        ["=", 404, 410],
        ["a", 414, 420],
        ["(3)", 524, 536],
      ]),
      ...cells(636, "A", "0.52", "0.11"),
      ...cells(622, "B", "0.47", "0.09"),
      ...twoColumn(600),
      ...twoColumn(586),
      ...twoColumn(572),
    ];
    expect(ocrPageLabels(words).spots.map((s) => s.printed)).toEqual(["(3)"]);
  });

  it("takes a left-side label alone on its line as opening the display below it", () => {
    line = 0;
    const words = [
      ...prose(700),
      ...prose(686),
      ...row(662, [["(2.2)", 72, 92]]),
      ...row(648, [
        ["Ey", 72, 84],
        ["=p(0", 88, 110],
        ["+55", 116, 140],
        ["=", 146, 152],
        ["+f", 430, 500],
        ["log", 504, 540],
      ]),
      ...prose(620),
      ...prose(606),
    ];
    expect(ocrPageLabels(words).spots.map((s) => [s.printed, s.side])).toEqual([["(2.2)", "left"]]);
  });

  it("joins a label whose brackets OCR put on another line", () => {
    line = 0;
    const words = [
      ...prose(700),
      ...prose(686),
      ...row(660, [
        ["V", 250, 256],
        ["=", 260, 266],
        ["a+b", 270, 300],
        ["3.4b", 523, 537],
      ]),
      ...row(659, [
        ["2", 262, 270],
        ["k(n", 280, 296],
        ["(", 520, 523],
        [")", 538, 540],
      ]),
      ...prose(634),
      ...prose(620),
    ];
    expect(ocrPageLabels(words).spots.map((s) => [s.labelBox.left, s.labelBox.right])).toEqual([[520, 540]]);
  });

  it("takes no gutter from word spaces that line up over a few lines", () => {
    line = 0;
    // Lines of prose whose spaces all fall at x 216-222 (a wide word space, not a column gap).
    const spaced = (y: number) =>
      row(y, [
        ["where", 72, 110],
        ["The", 114, 150],
        ["system", 154, 216],
        ["the", 222, 260],
        ["behaviour", 264, 330],
        ["time", 334, 380],
        ["decay", 384, 440],
        ["over", 444, 490],
        ["measured.", 494, 540],
      ]);
    const words = [
      ...spaced(700),
      ...spaced(686),
      ...row(660, [
        ["(7)", 72, 84],
        ["a", 260, 266],
        ["+", 270, 276],
        ["b", 280, 286],
        ["=", 290, 296],
        ["c", 300, 306],
      ]),
      ...spaced(634),
      ...spaced(620),
      ...spaced(606),
    ];
    expect(ocrPageLabels(words).spots.map((s) => [s.printed, s.side])).toEqual([["(7)", "left"]]);
  });

  it("takes the limits of sums, script-size rows touching the display, for no table row", () => {
    line = 0;
    const small = (y: number, words: [string, number, number][]) =>
      row(y, words).map((w) => ({ ...w, box: { ...w.box, top: y + 5 } }));
    const words = [
      ...prose(700),
      ...prose(686),
      ...small(666, [
        ["n", 120, 126],
        ["m", 300, 306],
        ["k", 460, 466],
      ]),
      ...row(656, [
        ["V=", 104, 116],
        [">", 120, 128],
        ["wi", 132, 150],
        ["+", 154, 160],
        [">", 300, 308],
        ["pi", 312, 330],
        ["+", 440, 446],
        [">", 460, 468],
        ["qk", 472, 500],
      ]),
      ...small(651, [
        ["i=1", 116, 130],
        ["j=1", 296, 310],
        ["k=1", 456, 470],
      ]),
      ...row(638, [["(11)", 524, 540]]),
      ...prose(620),
      ...prose(606),
    ];
    expect(ocrPageLabels(words).spots.map((s) => s.printed)).toEqual(["(11)"]);
  });
});
