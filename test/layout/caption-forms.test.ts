import { describe, expect, it } from "vitest";
import { checkFigure } from "../../src/checks/figure.js";
import { anchorsOf } from "./support.js";

describe("caption forms beyond Figure N. and Figure N:", () => {
  it("reads Fig N., Fig. N Title, Figure N :, Figure N |, Figure N – and session labels", async () => {
    const r = await anchorsOf("caption-forms");
    expect(r.figures.map((f) => [f.label, f.keyword, f.separator])).toEqual([
      ["1", "Fig", "."],
      ["2", "Fig.", ""],
      ["3", "Figure", ":"],
      ["4", "Figure", "|"],
      ["5", "Figure", "–"],
      ["6", "Figure", ":"],
      ["16.4.7", "Figure", ":"],
      ["16.4.8", "Figure", ":"],
      ["16.4.9", "Figure", ":"],
      ["16.4.10", "Figure", ":"],
      ["16.4.11", "Figure", ":"],
      ["16.4.12", "Figure", ":"],
    ]);
  });

  it("reads two captions that share one text line, each with its own figure", async () => {
    const r = await anchorsOf("caption-forms");
    const left = r.figures.find((f) => f.label === "16.4.8")!;
    const right = r.figures.find((f) => f.label === "16.4.9")!;
    expect(left.captionBox.right).toBeLessThan(right.captionBox.left);
    expect(left.figureBox!.right).toBeLessThan(right.figureBox!.left);
    expect(right.text).toBe("Figure 16.4.9: Key metric comparison table.");
  });

  it("reads the captions of a boxed listing and a coloured panel, and of text only set like the others", async () => {
    const r = await anchorsOf("caption-forms");
    const byLabel = new Map(r.figures.map((f) => [f.label, f]));
    expect(byLabel.get("16.4.10")?.figureBox).toBeDefined();
    expect(byLabel.get("16.4.11")?.figureBox).toBeDefined();
    expect(byLabel.get("16.4.12")?.figureBox).toBeUndefined();
    expect(byLabel.get("16.4.12")?.figureBoxOmitted).toBe("no-graphics");
  });

  it("refuses a paragraph opening with a reference set like the running text, and mentions in sentences", async () => {
    const r = await anchorsOf("caption-forms");
    const paragraph = r.rejectedCaptions.find((c) => c.text.startsWith("Figure 2 shows"))!;
    expect(paragraph.reasons).toEqual(["label-like-body-text"]);
    const mention = r.rejectedCaptions.find((c) => c.text.startsWith("Fig. 2 shows"))!;
    expect(mention.reasons).toContain("not-line-start");
    // The table caption set like the figure captions is no figure caption, and no figure 7 exists.
    expect(checkFigure(r, { label: "7" }).verdict).toBe("FAIL");
  });

  it("reads subfigure panels printed under their plots and enumerated by the caption", async () => {
    const r = await anchorsOf("caption-forms");
    const six = r.figures.find((f) => f.label === "6")!;
    expect(six.panels?.map((p) => [p.letter, p.source])).toEqual([
      ["a", "figure-area"],
      ["b", "figure-area"],
    ]);
    expect(checkFigure(r, { label: "6a" })).toMatchObject({ verdict: "PASS", reason: "found" });
    expect(checkFigure(r, { label: "6b" }).verdict).toBe("PASS");
    const c = checkFigure(r, { label: "6c" });
    expect(c).toMatchObject({ verdict: "FAIL", reason: "absent" });
    expect(c.message).toContain("no panel (c)");
    // A figure with no panels has no subfigures, and no figure 8 has any.
    expect(checkFigure(r, { label: "1a" }).verdict).toBe("FAIL");
    expect(checkFigure(r, { label: "8a" }).verdict).toBe("FAIL");
  });
});
