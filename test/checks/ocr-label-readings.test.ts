// When the crop readings of an equation label settle it: two whole readings that agree, after three
// readings, with no reading and no letter of the page's own reading saying otherwise.
import { describe, expect, it } from "vitest";
import {
  agreement,
  LABEL_READINGS,
  labelWithDroppedDots,
  mayHaveDroppedDots,
} from "../../src/checks/ocr-label-readings.js";

describe("the agreement of a label's crop readings", () => {
  it("accepts two whole readings once three are read, and reads on past a dropped parenthesis", () => {
    expect(agreement(["(9)", "(9)"], "(9)")).toEqual({ state: "open" });
    expect(agreement(["(9)", "(9)", ""], "(9)")).toEqual({ state: "agreed", label: "9" });
    // "9)" is no whole reading, but says nothing against (9): read on, then accept.
    expect(agreement(["9)", "9)", "(9)"], "©) 9")).toEqual({ state: "open" });
    expect(agreement(["9)", "9)", "(9)", "(9)"], "©) 9")).toEqual({ state: "agreed", label: "9" });
    // The page reading's digits often differ (a dot dropped, a 3 read as 9): no evidence either way.
    expect(agreement(["(1.4)", "(1.4)", "(1.4)"], "(14)")).toEqual({ state: "agreed", label: "1.4" });
  });

  it("refuses when a reading gives another label, whole or with a parenthesis dropped", () => {
    expect(agreement(["(13b)", "(13h)"], "(13b)")).toEqual({ state: "conflict" });
    expect(agreement(["(4.9)", "(4.9b)", "(4.9)"], "(4.9b)")).toEqual({ state: "conflict" });
    expect(agreement(["(52)", "(52)", "S2)"], "(82)")).toEqual({ state: "conflict" });
  });

  it("refuses when the page's own reading holds letters the agreed label lacks", () => {
    expect(agreement(["(19h)", "(19h)", "(19h)"], "19b")).toEqual({ state: "conflict" });
    expect(agreement(["(4.9)", "(4.9)", "(4.9)"], "(4.9b)")).toEqual({ state: "conflict" });
    expect(agreement(["(17b)", "(17b)", "(17b)"], "(17b) 17b")).toEqual({ state: "agreed", label: "17b" });
  });

  it("reads the tight crop first and never more than seven times, the finest resolution last", () => {
    expect(LABEL_READINGS[0]).toEqual({ crop: 0, dpi: 300 });
    expect(LABEL_READINGS.length).toBe(7);
    expect(LABEL_READINGS.slice(5)).toEqual([
      { crop: 0, dpi: 600 },
      { crop: 2, dpi: 600 },
    ]);
  });

  it("settles a label whose bracket only the finest readings hold at the sixth reading", () => {
    const readings = ["9)", "9)", "9)", "9)", "(9)", "(9)"];
    expect(agreement(readings.slice(0, 5), "9)")).toEqual({ state: "open" });
    expect(agreement(readings, "9)")).toEqual({ state: "agreed", label: "9" });
    expect(agreement(["9)", "9)", "9)", "9)", "(9)", "(8)"], "9)")).toEqual({ state: "conflict" });
  });
});

describe("readings that disagree only in a dropped dot", () => {
  const readings = ["(3.4)", "(3.4)", "(34)", "(3.4)", "(3.4)", "(3.4)", "(3.4)"];

  it("take the dotted label when the document numbers another label that way", () => {
    expect(agreement(readings.slice(0, 3), "(3.4)")).toEqual({ state: "conflict" });
    expect(mayHaveDroppedDots(readings.slice(0, 3))).toBe(true);
    expect(labelWithDroppedDots(readings, ["2.7", "1"])).toEqual({ label: "3.4", numberedLike: "2.7" });
    expect(labelWithDroppedDots(["(12.10b)", "(1210b)", "(12.10b)"], ["3.1a"])).toEqual({
      label: "12.10b",
      numberedLike: "3.1a",
    });
    // The page's own reading of the spot dropped the dot too: its digits still agree.
    expect(labelWithDroppedDots(readings, ["2.7"], ["(34)"])).toEqual({ label: "3.4", numberedLike: "2.7" });
  });

  it("take nothing when the document numbers its labels otherwise, or only this one has the shape", () => {
    // Numbered (1) to (40): a mark read as a dot is no evidence of a (3.4).
    expect(labelWithDroppedDots(readings, ["33", "35"])).toBeUndefined();
    expect(labelWithDroppedDots(readings, ["3.4"])).toBeUndefined();
    expect(labelWithDroppedDots(readings, [])).toBeUndefined();
    // Another shape: (2.7a) does not number like (3.4).
    expect(labelWithDroppedDots(readings, ["2.7a"])).toBeUndefined();
  });

  it("take nothing when the undotted label is read as often, or another digit is read", () => {
    expect(labelWithDroppedDots(["(3.4)", "(34)", "(3.4)", "(34)"], ["2.7"])).toBeUndefined();
    expect(labelWithDroppedDots(["(3.4)", "(34)", "(34)"], ["2.7"])).toBeUndefined();
    expect(labelWithDroppedDots(["(3.4)", "(3.4)", "(3.1)"], ["2.7"])).toBeUndefined();
    expect(labelWithDroppedDots(["(3.4)", "(3.4)", "(84)"], ["2.7"])).toBeUndefined();
    expect(mayHaveDroppedDots(["(3.4)", "(3.4)", "(84)"])).toBe(false);
    // The page's reading gives other digits.
    expect(labelWithDroppedDots(readings, ["2.7"], ["(8.4)"])).toBeUndefined();
    // Two dotted labels read whole: no one label the dots were dropped from.
    expect(labelWithDroppedDots(["(3.4)", "(3.4)", "(34)", "(3.4.1)", "(3.4.1)"], ["2.7"])).toBeUndefined();
    expect(mayHaveDroppedDots(["(13b)", "(13h)"])).toBe(false);
  });
});
