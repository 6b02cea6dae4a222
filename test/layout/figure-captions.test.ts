import { describe, expect, it } from "vitest";
import { anchorsOf } from "./support.js";

describe("figure captions", () => {
  it("reads captions in every style: Figure N. and N:, Fig. N., FIG. N., subfigures, appendix A.1", async () => {
    const r = await anchorsOf("figures");
    expect(r.figures.map((f) => [f.label, f.keyword, f.separator])).toEqual([
      ["1", "Figure", "."],
      ["2", "Figure", ":"],
      ["3", "Figure", ":"],
      ["4", "Figure", ":"],
      ["5", "Fig.", "."],
      ["6", "FIG.", "."],
      ["A.1", "Figure", ":"],
    ]);
  });

  it("finds each caption's figure graphics, and accepts a text-only figure by its formatting", async () => {
    const r = await anchorsOf("figures");
    const byLabel = new Map(r.figures.map((f) => [f.label, f]));
    for (const label of ["1", "2", "3", "5", "6", "A.1"]) expect(byLabel.get(label)?.figureBox).toBeDefined();
    expect(byLabel.get("4")?.figureBox).toBeUndefined();
    // The figure sits above its caption.
    const one = byLabel.get("1")!;
    expect(one.figureBox!.bottom).toBeGreaterThan(one.captionBox.top);
    expect(one.text).toBe("Figure 1. Response of the sensor to a step in temperature.");
  });

  it("does not read a table caption, an in-text mention or a sentence that opens a line as a caption", async () => {
    const r = await anchorsOf("figures");
    expect(r.figures.filter((f) => f.page === 1).map((f) => f.label)).toEqual(["1", "2", "3"]);
    const sentence = r.rejectedCaptions.find((c) => c.label === "5")!;
    expect(sentence.reasons).toEqual(["inside-paragraph"]);
    expect(sentence.text).toMatch(/^Figure 5\. This sentence/);
  });

  it("does not read a paragraph that opens like a caption and runs on into the next paragraph", async () => {
    const r = await anchorsOf("figures");
    const lone = r.rejectedCaptions.find((c) => c.label === "9")!;
    expect(lone.reasons).toEqual(["runs-into-paragraph"]);
    expect(r.figures.map((f) => f.label)).not.toContain("9");
  });

  it("reads captions in a two-column paper, in a column and across both", async () => {
    const r = await anchorsOf("eq-twocolumn");
    expect(r.figures.map((f) => [f.label, f.page])).toEqual([
      ["1", 1],
      ["2", 2],
    ]);
    expect(r.figures[1].captionBox.right - r.figures[1].captionBox.left).toBeGreaterThan(250);
  });
});
