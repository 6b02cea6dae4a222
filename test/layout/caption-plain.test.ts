import { describe, expect, it } from "vitest";
import { checkFigure } from "../../src/checks/figure.js";
import { anchorsOf } from "./support.js";

describe("captions with no separator in fonts that have no names", () => {
  it("reads a bold label before plain words as set apart, with graphics or of text only", async () => {
    const r = await anchorsOf("caption-plain");
    expect(r.figures.map((f) => [f.label, f.separator])).toEqual([
      ["1", ""],
      ["2", ""],
      ["3", ""],
    ]);
    expect(r.figures[0].figureBox).toBeDefined();
    expect(r.figures[1].figureBoxOmitted).toBe("no-graphics");
    expect(checkFigure(r, { label: "2" }).verdict).toBe("PASS");
  });

  it("reads a label set apart by the space a separator with no character leaves", async () => {
    const r = await anchorsOf("caption-plain");
    const dash = r.figures.find((f) => f.label === "3")!;
    expect(dash.text).toMatch(/^Figure 3 The second day's protocol/);
    expect(dash.figureBoxOmitted).toBe("no-graphics");
  });

  it("refuses a paragraph opening with a reference in the running text's font", async () => {
    const r = await anchorsOf("caption-plain");
    expect(r.rejectedCaptions.find((c) => c.label === "7")?.reasons).toEqual(["label-like-body-text"]);
    expect(checkFigure(r, { label: "7" }).verdict).toBe("FAIL");
  });
});
