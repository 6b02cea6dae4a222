// The layout rule for equation labels in an OCR reading (word boxes only): a short group at a
// column's edge, past a wide gap, beside an indented or centred row of mathematics, inside the text
// block. Enumerations, prose, table cells, page numbers and displays of words are refused.
import { describe, expect, it } from "vitest";
import {
  documentBlockTop,
  documentColumns,
  ocrPageColumns,
  ocrPageLabels,
  ocrTextBlock,
  readsAsMathematics,
} from "../../src/layout/ocr-equation-labels.js";
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

const LEFT_WORDS = ["Each", "quantity", "below", "is", "defined", "on", "the", "same"];
const RIGHT_WORDS = ["space", "and", "the", "arguments", "hold", "for", "every", "size"];

/** A line of a two-column page as OCR may read it: both columns' words on one line. */
function twoColumn(y: number): OcrWord[] {
  return row(y, [
    ...LEFT_WORDS.map((t, i) => [t, 72 + i * 28, 96 + i * 28] as [string, number, number]),
    ...RIGHT_WORDS.map((t, i) => [t, 312 + i * 28, 336 + i * 28] as [string, number, number]),
  ]);
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
        ...RIGHT_WORDS.map((t, i) => [t, 312 + i * 28, 336 + i * 28] as [string, number, number]),
      ]),
      ...twoColumn(636),
      ...twoColumn(622),
      ...twoColumn(608),
    ];
    expect(ocrPageLabels(words).spots.map((s) => [s.printed, s.labelBox.right])).toEqual([["(3)", 296]]);
  });

  it("cuts lines OCR joined across the document's gutter where the page's title and page number hide its own", () => {
    line = 0;
    // A first page: a title and an author across the gutter, three lines of each column, a display in
    // the right column (its label at that column's right edge) beside the left column's prose, and
    // the page number under the gutter. Few words cross the gutter, but too many for a free strip.
    const words = [
      ...row(760, [
        ["A", 250, 258],
        ["Generated", 262, 326],
        ["Study", 330, 362],
      ]),
      ...row(740, [
        ["A.", 280, 292],
        ["Author", 296, 332],
      ]),
      ...twoColumn(700),
      ...twoColumn(686),
      ...twoColumn(672),
      ...row(650, [
        ...LEFT_WORDS.map((t, i) => [t, 72 + i * 28, 96 + i * 28] as [string, number, number]),
        ["u", 380, 386],
        ["=", 390, 396],
        ["v", 400, 406],
        ["(2a)", 512, 532],
      ]),
      ...twoColumn(636),
      ...twoColumn(622),
      ...row(100, [["1", 302, 306]]),
    ];
    // The page alone shows one wide column: the label's line is a line of prose.
    expect(ocrPageColumns(words)).toEqual([{ left: 72, right: 532 }]);
    expect(ocrPageLabels(words).spots).toEqual([]);
    // Other pages show the document's two columns: the lines are cut at its gutter.
    const columns = [
      { left: 72, right: 292 },
      { left: 312, right: 532 },
    ];
    expect(ocrPageLabels(words, { columns }).spots.map((s) => [s.printed, s.labelBox.left])).toEqual([
      ["(2a)", 512],
    ]);
  });

  it("takes the mathematics a finer reading of the band beside a label found, and only there", () => {
    line = 0;
    // A display whose signs the page's reading lost: `V = n!/k! + prod` read as `Vie 1—gq;`.
    const display = (label: string) => [
      ...prose(700),
      ...prose(686),
      ...row(660, [
        ["Vie", 240, 262],
        ["1—gq;", 300, 340],
        [label, 515, 540],
      ]),
      ...prose(634),
      ...prose(620),
    ];
    const words = display("(19a)");
    const refused = ocrPageLabels(words);
    expect(refused.spots).toEqual([]);
    expect(refused.sightings.find((x) => x.label === "19a")?.reasons).toEqual(["no-math"]);
    expect(refused.mathBandsToRead).toHaveLength(1);
    const [band] = refused.mathBandsToRead;
    expect(band.right).toBeLessThanOrEqual(515);
    expect(band.left).toBeLessThanOrEqual(240);
    expect(band.bottom).toBeLessThan(660);
    expect(band.top).toBeGreaterThan(670);
    expect(ocrPageLabels(words, { mathBands: [band] }).spots.map((s) => s.printed)).toEqual(["(19a)"]);
    // A label the reading mangled (`9)` for `(3.5)`) gets its band too: its crops read the label.
    const mangled = ocrPageLabels(display("9)"));
    expect(mangled.mathBandsToRead).toHaveLength(1);
    expect(
      ocrPageLabels(display("9)"), { mathBands: mangled.mathBandsToRead }).spots.map((s) => s.printed),
    ).toEqual(["9)"]);
    // A band read beside another label lends this one nothing.
    const elsewhere = { ...band, bottom: band.bottom - 60, top: band.top - 60 };
    expect(ocrPageLabels(words, { mathBands: [elsewhere] }).spots).toEqual([]);
    // A label refused for more than want of mathematics gets no band to read: prose beside it.
    line = 0;
    const proseLabel = [...prose(700), ...prose(686), ...prose(672, "as in (3)"), ...prose(658)];
    expect(ocrPageLabels(proseLabel).mathBandsToRead).toEqual([]);
  });

  it("reads a band's words as mathematics from a sign, a tall symbol or a fraction, never from prose", () => {
    line = 0;
    expect(
      readsAsMathematics(
        row(600, [
          ["V—", 240, 252],
          ["n!", 260, 270],
          ["=", 274, 280],
        ]),
      ),
    ).toBe(true);
    expect(
      readsAsMathematics(
        row(600, [
          ["Vi", 240, 252],
          ["—", 256, 262],
          ["q.", 266, 274],
        ]),
      ),
    ).toBe(false);
    expect(readsAsMathematics([])).toBe(false);
    expect(
      readsAsMathematics(
        row(600, [
          ["results", 240, 280],
          ["= ", 284, 290],
          ["shown", 294, 330],
          ["below", 334, 366],
        ]),
      ),
    ).toBe(false);
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
      mathBandsToRead: [],
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

  it("takes a circled sign at a display that fills its line for a label whose brackets OCR read as a ring", () => {
    line = 0;
    const filled = (label: string) => [
      ...prose(700),
      ...prose(686),
      // Mirrored, as a leqno label stands: the label first, the display filling the line from it.
      ...row(660, [
        [label, 72, 82],
        ["V=53", 89, 126],
        ["+Va2", 130, 300],
        ["+b+E[X]+Var(Y)", 304, 536],
      ]),
      ...prose(634),
      ...prose(620),
    ];
    expect(ocrPageLabels(filled("®")).spots.map((s) => [s.printed, s.side])).toEqual([["®", "left"]]);
    // Any other sign there is no label to read again.
    expect(ocrPageLabels(filled("%")).spots).toEqual([]);
    // Nor is a ring ending a line of prose.
    line = 0;
    const prosy = [...prose(700), ...prose(686, "trademark"), ...prose(672)];
    prosy.push({
      ...prosy[prosy.length - 1],
      text: "®",
      box: { left: 531, right: 540, bottom: 686, top: 696 },
    });
    expect(ocrPageLabels(prosy).spots).toEqual([]);
  });

  it("crops a label whose bracket OCR dropped wider on that side, and never into the labels above and below", () => {
    line = 0;
    const stacked = (y: number, label: [string, number, number]) =>
      row(y, [["J", 250, 256], ["=", 260, 266], ["a+b", 270, 300], label]);
    const words = [
      ...prose(700),
      ...prose(686),
      ...stacked(660, ["(8)", 526, 540]),
      ...stacked(647, ["9)", 529, 540]),
      ...stacked(634, ["(10)", 522, 540]),
      ...prose(610),
      ...prose(596),
    ];
    const spots = ocrPageLabels(words).spots;
    expect(spots.map((s) => s.printed)).toEqual(["(8)", "9)", "(10)"]);
    const [eight, nine] = spots;
    const em = 10;
    // The tight crop of `9)` reaches half an em past the usual 0.3 em on the left, none more on the right.
    expect(nine.cropBoxes[0].left).toBeCloseTo(529 - 0.8 * em);
    expect(nine.cropBoxes[0].right).toBeCloseTo(540 + 0.3 * em);
    expect(eight.cropBoxes[0].left).toBeCloseTo(526 - 0.3 * em);
    // Halfway to the labels beside it, at most: 3 pt between the rows, 1.5 each way.
    for (const crop of nine.cropBoxes) {
      expect(crop.top).toBeLessThanOrEqual(658.5);
      expect(crop.bottom).toBeGreaterThanOrEqual(645.5);
    }
  });

  it("refuses a numbered sentence as prose, however many short words and stray signs OCR reads in it", () => {
    line = 0;
    const words = [
      ...prose(700),
      ...prose(686),
      // An example sentence numbered at the left margin, set in a box 1.5 em past its number; OCR read a
      // bar at the box's edge, and half the words are short ones.
      ...row(660, [
        ["(73)", 72, 92],
        ["|", 106, 108],
        ["Of", 112, 124],
        ["predicted", 128, 176],
        ["inference", 180, 228],
        ["the", 232, 248],
        ["the", 252, 268],
        ["and", 272, 290],
        ["extend", 294, 328],
        ["repeated", 332, 376],
        ["which", 380, 410],
        ["a.", 414, 422],
      ]),
      ...prose(634),
      ...prose(620),
    ];
    const found = ocrPageLabels(words);
    expect(found.spots).toEqual([]);
    expect(found.sightings.map((s) => [s.label, s.reasons])).toEqual([["73", ["prose-beside-label"]]]);
    // A short sentence: three long words only, still nearly all its characters words of prose.
    line = 0;
    const short = [
      ...prose(700),
      ...prose(686),
      ...row(660, [
        ["(62)", 72, 92],
        ["|", 106, 108],
        ["Of", 112, 124],
        ["class", 128, 156],
        ["of", 160, 170],
        ["with", 174, 196],
        ["the", 200, 216],
        ["and", 220, 238],
        ["the", 242, 258],
        ["time.", 262, 290],
      ]),
      ...prose(634),
      ...prose(620),
    ];
    expect(ocrPageLabels(short).sightings.map((s) => [s.label, s.reasons])).toEqual([
      ["62", ["prose-beside-label"]],
    ]);
  });

  it("takes a fraction OCR read as words stacked without their bar for mathematics, and a title over its author for none", () => {
    line = 0;
    const stacked = (upper: [string, number, number][], lower: [string, number, number][], label: string) => [
      ...prose(700),
      ...prose(686),
      ...row(664, upper),
      ...row(652, [...lower, [label, 524, 540]]),
      ...prose(626),
      ...prose(612),
    ];
    // `J = n!/(k!(n-k)!)`, the relation read as a dash: a numerator centred over its denominator.
    const fraction = stacked(
      [["n!", 337, 346]],
      [
        ["J", 250, 256],
        ["—", 262, 270],
        ["E!'(n", 318, 339],
        ["—", 342, 349],
        ["k)!", 353, 365],
      ],
      "(6)",
    );
    expect(ocrPageLabels(fraction).spots.map((s) => s.printed)).toEqual(["(6)"]);
    // Words of prose centred over others are no fraction.
    const title = stacked(
      [["Generated", 260, 330]],
      [
        ["A.", 270, 280],
        ["Author", 284, 320],
      ],
      "(7)",
    );
    expect(ocrPageLabels(title).sightings.map((s) => [s.label, s.reasons])).toEqual([["7", ["no-math"]]]);
  });

  it("takes a display close to its label when it fills its line from it, is centred and set in, or is aligned", () => {
    line = 0;
    const page = (rows: OcrWord[]) => [...prose(700), ...prose(686), ...rows, ...prose(600), ...prose(586)];
    // A left-side label 0.6 em from a display that fills its line, its first words a word space apart
    // and a wider space after them: the label stands alone, not in one group with them.
    const filling = page(
      row(660, [
        ["(1.1)", 72, 90],
        ["r,", 96, 104],
        ["=", 108, 114],
        ["af*+vlogd+x,—nV", 126, 400],
        ["+z", 404, 420],
        ["—DV", 424, 536],
      ]),
    );
    expect(ocrPageLabels(filling).spots.map((s) => [s.printed, s.side])).toEqual([["(1.1)", "left"]]);
    // A centred display 0.6 em from its label, set 2.5 em in from the column's other edge.
    const pressed = page(
      row(660, [
        ["o(s)", 97, 116],
        ["=", 120, 126],
        ["Fri", 130, 200],
        ["DV-=u", 204, 300],
        ["+", 304, 310],
        ["pn)", 314, 516],
        ["(24)", 522, 540],
      ]),
    );
    expect(ocrPageLabels(pressed).spots.map((s) => s.printed)).toEqual(["(24)"]);
    // Rows of an aligned display, flush near the column's edge, their relation signs one over the other.
    const aligned = page([
      ...row(660, [
        ["L(0)", 86, 104],
        ["=p0", 109, 132],
        ["z)", 141, 150],
        ["(6a)", 524, 540],
      ]),
      ...row(640, [
        ["L(0)", 86, 104],
        ["=", 109, 115],
        ["af", 119, 135],
        ["(6b)", 524, 540],
      ]),
    ]);
    expect(ocrPageLabels(aligned).spots.map((s) => s.printed)).toEqual(["(6a)", "(6b)"]);
    // The same rows with their signs apart are refused as not centred.
    const apart = page([
      ...row(660, [
        ["L(0)", 86, 104],
        ["=p0", 109, 132],
        ["(6a)", 524, 540],
      ]),
      ...row(640, [
        ["L(0)", 86, 110],
        ["=", 116, 122],
        ["af", 126, 140],
        ["(6b)", 524, 540],
      ]),
    ]);
    expect(ocrPageLabels(apart).sightings.map((s) => [s.label, s.reasons])).toEqual([
      ["6a", ["not-centred"]],
      ["6b", ["not-centred"]],
    ]);
  });

  it("takes the document's columns on a page whose few lines of running text show none of its own", () => {
    line = 0;
    /** A line of running text from `left` to `right`. */
    const text = (y: number, left: number, right: number) => {
      const step = (right - left) / 6;
      return row(
        y,
        ["Each", "quantity", "below", "is", "defined", "here"].map(
          (t, i) => [t, left + i * step, left + (i + 1) * step - 4] as [string, number, number],
        ),
      );
    };
    // The last page of a document: a left-side label's display, then four lines, no three sharing an edge.
    const sparse = [
      ...row(700, [
        ["(21)", 72, 92],
        ["y", 250, 256],
        ["=", 260, 266],
        ["a+b", 270, 300],
      ]),
      ...text(670, 90, 400),
      ...text(656, 90, 540),
      ...text(642, 72, 540),
      ...text(628, 72, 300),
    ];
    expect(ocrPageColumns(sparse)).toEqual([]);
    expect(ocrPageLabels(sparse).spots).toEqual([]);
    // Two other pages show the column 72-540, a third its own layout.
    const full = [...prose(700), ...prose(686), ...prose(672), ...prose(658)];
    const columns = documentColumns([
      ocrPageColumns(full),
      ocrPageColumns(full),
      [{ left: 200, right: 400 }],
    ]);
    expect(columns).toEqual([{ left: LEFT, right: 536 }]);
    expect(ocrPageLabels(sparse, { columns }).spots.map((s) => [s.printed, s.side])).toEqual([
      ["(21)", "left"],
    ]);
    // One page alone says nothing.
    expect(documentColumns([ocrPageColumns(full), []])).toEqual([]);
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

  it("takes a display's pieces that OCR reads as rows of their own for one line, and still refuses a tight table", () => {
    line = 0;
    /** A row whose words stand from `bottom` to `top`. */
    const band = (bottom: number, top: number, words: [string, number, number][]) =>
      row(bottom, words).map((w) => ({ ...w, box: { ...w.box, top } })) as OcrWord[];
    const display = [
      ...prose(720),
      ...prose(706),
      // The sums' upper limits, a little farther from the line than a script row touches it.
      ...band(677.5, 683.5, [
        ["n", 150, 156],
        ["m", 262, 268],
        ["N", 400, 406],
      ]),
      // The line with the fractions' numerators, and their denominators read as a row that overlaps
      // it: each row has wide gaps, the two together none.
      ...band(652, 674, [
        ["f(x)", 104, 124],
        ["=", 126, 132],
        ["m1", 150, 200],
        ["3", 210, 230],
        ["ey", 250, 280],
        ["ot", 300, 330],
        ["DVR", 350, 372],
        ["Ax", 420, 440],
        ["(12)", 524, 540],
      ]),
      ...band(642, 662, [
        ["Kl", 126, 140],
        ["kK)!", 160, 196],
        ["202", 206, 240],
        ["FHT", 262, 296],
        ["LETT", 320, 346],
        ["gy", 376, 396],
        ["yliz", 400, 418],
      ]),
      // The lower limits, taller than script words touching the line, well under its height.
      ...band(632, 638.5, [
        ["i=1", 150, 162],
        ["k", 262, 268],
        ["j=1", 400, 412],
      ]),
      ...prose(610),
      ...prose(596),
    ];
    expect(ocrPageLabels(display).spots.map((s) => s.printed)).toEqual(["(12)"]);

    line = 0;
    const table = [
      ...prose(700),
      ...prose(686),
      ...row(664, [
        ["Model", 200, 230],
        ["Estimate", 280, 320],
        ["Error", 380, 410],
        ["Case", 500, 524],
      ]),
      // Rows a small type size sets 2.5 pt apart, cells of signs: a table's rows all the same.
      ...band(652, 659.5, [
        ["A", 200, 206],
        ["3.52±0.11", 280, 326],
        ["0.47", 380, 400],
        ["(13)", 510, 526],
      ]),
      ...band(642, 649.5, [
        ["B", 200, 206],
        ["0.43", 280, 300],
        ["1.09±0.02", 380, 426],
        ["(14)", 510, 526],
      ]),
      ...prose(620),
      ...prose(606),
    ];
    const refused = ocrPageLabels(table);
    expect(refused.spots).toEqual([]);
    for (const s of refused.sightings) expect(s.reasons).toContain("tabular");
  });
});
