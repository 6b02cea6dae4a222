// When the crop readings of an equation label settle it: two whole readings that agree, after three
// readings, with no reading and no letter of the page's own reading saying otherwise.
import { describe, expect, it } from "vitest";
import { agreement, LABEL_READINGS } from "../../src/checks/ocr-label-readings.js";

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
