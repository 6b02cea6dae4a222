// A lettered label whose crop readings disagree on the letter alone (OCR reads "b" as "h") is
// settled by the labels agreed next to it in its column: (13a) above it makes it (13b). Anything else
// (other digits, no neighbour in order, a letter no reading gave whole) leaves it unread.
import { describe, expect, it } from "vitest";
import { columnNeighbours, settleInSequence } from "../../src/checks/ocr-equations.js";
import { labelInSequence } from "../../src/checks/ocr-label-readings.js";
import type { Box } from "../../src/document/model.js";
import type { OcrLabelSpot } from "../../src/layout/ocr-equation-labels.js";

describe("a lettered label settled by its neighbours", () => {
  const readings = ["(13b)", "(13h)", "(13h)", "(13h)", "(13)"];

  it("takes the letter that follows the label above, or precedes the label below", () => {
    expect(labelInSequence(readings, { above: "13a" })).toBe("13b");
    expect(labelInSequence(readings, { below: "13c" })).toBe("13b");
    expect(labelInSequence(["(3.6h)", "(3.6b)", "(3.6h)"], { above: "3.6a", below: "3.6c" })).toBe("3.6b");
  });

  it("leaves it unread when the neighbours are not in order or absent", () => {
    expect(labelInSequence(readings, {})).toBeUndefined();
    expect(labelInSequence(readings, { above: "12a" })).toBeUndefined();
    expect(labelInSequence(readings, { above: "13c" })).toBeUndefined();
    expect(labelInSequence(readings, { below: "14" })).toBeUndefined();
  });

  it("never takes a label no reading gave whole, nor one whose digits a reading contradicts", () => {
    // (13b) only ever read without its closing parenthesis: not whole.
    expect(labelInSequence(["(13b", "(13h)", "(13h)"], { above: "13a" })).toBeUndefined();
    // Another reading gives other digits: the letter is not the only doubt.
    expect(labelInSequence(["(13b)", "(18h)", "(13h)"], { above: "13a" })).toBeUndefined();
  });

  it("takes the digits from the crops and the neighbour, not the page reading's coarser word", () => {
    // The page read the spot as (18b) or (80); every crop reads 13, as does the agreed (13a) above.
    expect(labelInSequence(["(13b)", "(13h)"], { above: "13a" }, ["(18b)"])).toBe("13b");
    expect(labelInSequence(["(28b)", "(28h)", "(28h)"], { above: "28a" }, ["(80)"])).toBe("28b");
    // A neighbour of other digits settles nothing.
    expect(labelInSequence(["(13b)", "(13h)"], { above: "18a" })).toBeUndefined();
  });

  it("takes the page reading's letter when every crop took it for another", () => {
    // Crops read (22h) and (22D), the page (22b), below an agreed (22a).
    const crops = ["(22h)", "(22D)", "(22h)", "(22D)"];
    expect(labelInSequence(crops, { above: "22a" }, ["(22b)"])).toBe("22b");
    expect(labelInSequence(crops, { above: "22a" })).toBeUndefined();
    // The page's word is no whole label, or gives other digits: no letter from it.
    expect(labelInSequence(crops, { above: "22a" }, ["22b)"])).toBeUndefined();
    expect(labelInSequence(crops, { above: "22a" }, ["(23b)"])).toBeUndefined();
    // Two letters read fit: (22b) after (22a) above, (22h)... no; (22c) before (22d) below does.
    expect(labelInSequence(["(22c)", "(22h)"], { above: "22a", below: "22d" }, ["(22b)"])).toBeUndefined();
  });

  it("takes the digits from crops that read a letter no label takes, two of them at least", () => {
    // Every crop reads (24D), the page (24b), below an agreed (24a).
    const crops = Array.from({ length: 7 }, () => "(24D)");
    expect(labelInSequence(crops, { above: "24a" }, ["(24b)"])).toBe("24b");
    // One crop gives the digits: too little; crops that give no digits give none.
    expect(labelInSequence(["(24D)", "(xv)", "(Tl)"], { above: "24a" }, ["(24b)"])).toBeUndefined();
    expect(labelInSequence(["(xv)", "(xv)", "(Tl)"], { above: "24a" }, ["(24b)"])).toBeUndefined();
    // A crop giving other digits with such a letter is a doubt on the digits.
    expect(labelInSequence(["(24D)", "(24D)", "(23D)"], { above: "24a" }, ["(24b)"])).toBeUndefined();
  });

  it("takes a reading of a digit in the letter's place for the letter only when the label is read whole more often", () => {
    const crops = ["(4.9a)", "(4.92)", "(4.9a)", "(4.92)", "(4.9a)"];
    expect(labelInSequence(crops, { below: "4.9b" })).toBe("4.9a");
    expect(labelInSequence(crops, {})).toBeUndefined();
    // As often as the digit: the digit may be printed.
    expect(labelInSequence(["(4.9a)", "(4.92)", "(4.9a)", "(4.92)"], { below: "4.9b" })).toBeUndefined();
    // Two digits, or other digits before it, are not a letter misread.
    expect(labelInSequence(["(4.9a)", "(4.921)", "(4.9a)", "(4.9a)"], { below: "4.9b" })).toBeUndefined();
    expect(labelInSequence(["(4.9a)", "(4.82)", "(4.9a)", "(4.9a)"], { below: "4.9b" })).toBeUndefined();
  });

  it("opens a run at `a` right after the label of the number before, and nowhere else", () => {
    const crops = ["(3.82)", "(3.8a)", "(3.8a)", "(3.8a)", "(3.82)", "(3.8a)", "(3.82)"];
    expect(labelInSequence(crops, { above: "3.7" })).toBe("3.8a");
    expect(labelInSequence(crops, { above: "3.7c" })).toBe("3.8a");
    expect(labelInSequence(["(13h)", "(13a)", "(13a)"], { above: "12" })).toBe("13a");
    // Not the number before, or a letter past `a`: no run opens there.
    expect(labelInSequence(crops, { above: "3.6" })).toBeUndefined();
    expect(labelInSequence(crops, { above: "2.7" })).toBeUndefined();
    expect(labelInSequence(["(3.8b)", "(3.8h)", "(3.8h)"], { above: "3.7" })).toBeUndefined();
  });

  it("leaves it unread when two letters fit", () => {
    // (13b) follows (13a) above and (13c)... would precede (13d) below: both fit, neither is taken.
    expect(labelInSequence(["(13b)", "(13c)"], { above: "13a", below: "13d" })).toBeUndefined();
  });
});

describe("the spots next to a spot in its column", () => {
  const at = (
    printed: string,
    bottom: number,
    left = 460,
    side: "right" | "left" = "right",
  ): OcrLabelSpot => {
    const labelBox: Box = { left, bottom, right: left + 18, top: bottom + 10 };
    return { side, printed, labelBox, equationBox: labelBox, cropBoxes: [labelBox] };
  };

  it("finds the nearest spot above and below at the same side and across, with their agreed labels", () => {
    const a = at("(13a)", 500);
    const b = at("(13b)", 470);
    const c = at("(13c)", 440);
    const far = at("(12)", 600);
    const otherColumn = at("(30)", 480, 200);
    const leftSide = at("(31)", 480, 460, "left");
    const spots = [far, a, b, c, otherColumn, leftSide];
    const agreed = new Map([
      [a, "13a"],
      [c, "13c"],
      [far, "12"],
      [otherColumn, "30"],
      [leftSide, "31"],
    ]);
    expect(columnNeighbours(b, spots, agreed)).toEqual({ above: "13a", below: "13c" });
    // The spot next above had no agreed label: nothing above is said, not the one beyond it.
    expect(columnNeighbours(c, spots, agreed)).toEqual({});
  });

  it("settles a run of disputed lettered labels in passes, from an agreed one at its end", () => {
    const a = at("(4.9a)", 500);
    const b = at("(4.9b)", 470);
    const c = at("(4.9¢)", 440);
    const spots = [a, b, c];
    // (4.9a) read with a digit for its letter twice, (4.9b) with its letter dropped; (4.9c) agreed.
    const readingsA = ["(4.9a)", "(4.92)", "(4.9a)", "(4.92)", "(4.9a)", "(4.9a)", "(4.9a)"];
    const readingsB = ["(4.9)", "(4.9b)", "(4.9b)", "(4.9)", "(4.9b)", "(4.9)", "(4.9b)"];
    const agreed = new Map([[c, "4.9c"]]);
    const settled = settleInSequence(
      [
        { spot: a, readings: readingsA },
        { spot: b, readings: readingsB },
      ],
      spots,
      agreed,
    );
    expect(settled.map((x) => [x.label, x.neighbours])).toEqual([
      ["4.9b", { below: "4.9c" }],
      ["4.9a", { below: "4.9b" }],
    ]);
    // Without the agreed end nothing settles: two disputed labels never settle each other.
    expect(
      settleInSequence(
        [
          { spot: a, readings: readingsA },
          { spot: b, readings: readingsB },
        ],
        spots,
        new Map(),
      ),
    ).toEqual([]);
  });
});
