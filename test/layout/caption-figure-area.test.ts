import { describe, expect, it } from "vitest";
import { checkFigure } from "../../src/checks/figure.js";
import { anchorsOf } from "./support.js";

describe("a figure's own text and place", () => {
  it("reads wrapped subcaptions set smaller than the running text as the figure's, not as running text", async () => {
    const r = await anchorsOf("caption-subcaptions");
    const first = r.figures.find((f) => f.label === "1.1")!;
    expect(first.figureBox).toBeDefined();
    expect(first.panels?.map((p) => p.letter)).toEqual(["a", "b", "c"]);
    expect(checkFigure(r, { label: "1.1c" }).verdict).toBe("PASS");
    expect(checkFigure(r, { label: "1.1d" }).verdict).toBe("FAIL");
  });

  it("keeps a figure at a page's top that the running text of the document never reaches", async () => {
    const r = await anchorsOf("caption-subcaptions");
    for (const f of r.figures) {
      expect(f.figureBox).toBeDefined();
      expect(f.figureBox!.bottom).toBeGreaterThan(f.captionBox.top);
    }
  });

  it("reads a caption centred in its column right under a figure of text only", async () => {
    const r = await anchorsOf("caption-centred");
    expect(r.figures.map((f) => f.label)).toEqual(["1", "2"]);
    expect(r.figures[1].figureBoxOmitted).toBe("no-graphics");
    expect(r.rejectedCaptions.find((c) => c.label === "9")?.reasons).toEqual(["inside-paragraph"]);
  });
});

describe("a caption beside running text", () => {
  it("reads a wrapped figure's caption with the narrowed column's lines less than an em before it", async () => {
    const r = await anchorsOf("caption-wrapped");
    expect(r.figures.map((f) => f.label)).toEqual(["1"]);
    expect(r.figures[0].text).toMatch(/^Figure 1\. The response of the sensor/);
  });

  it("bounds a wrapped figure's caption and figure by the narrowed column, not the running text beside and below", async () => {
    const r = await anchorsOf("caption-wrapped");
    const f = r.figures[0];
    // The paragraph beside the figure ends less than an em before it and runs on full width below.
    const textBeside = 318.5;
    expect(f.captionBox.left).toBeGreaterThan(textBeside);
    expect(f.figureBox).toBeDefined();
    expect(f.figureBox!.left).toBeGreaterThan(textBeside);
    expect(f.figureBox!.bottom).toBeGreaterThan(f.captionBox.top);
    // Two rows of caption, nothing of the paragraph under them.
    expect(f.captionBox.top - f.captionBox.bottom).toBeLessThan(11 * 2.5);
    expect(f.text).toBe("Figure 1. The response of the sensor over the whole day of the run.");
  });

  it("still refuses a mention inside the narrowed column", async () => {
    const r = await anchorsOf("caption-wrapped");
    expect(r.rejectedCaptions.find((c) => c.label === "4")?.reasons).toEqual(["not-line-start"]);
    expect(checkFigure(r, { label: "4" }).verdict).toBe("FAIL");
  });
});

describe("figures beside other text", () => {
  it("keeps a wrapped figure with a narrow gap and a smaller caption inside its own column", async () => {
    const r = await anchorsOf("caption-wrapped-narrow");
    expect(r.figures.map((f) => f.label)).toEqual(["1"]);
    const f = r.figures[0];
    // The paragraph beside ends 8 pt before the figure's column and runs on full width below.
    expect(f.captionBox.left).toBeGreaterThan(330);
    expect(f.figureBox!.left).toBeGreaterThan(330);
    expect(f.text).toBe("Figure 1: The weight of each sample before and after the exposure run, by day.");
  });

  it("reads figures side by side as one each, each caption and box its own, however close", async () => {
    const r = await anchorsOf("caption-side-by-side");
    expect(r.figures.map((f) => f.label)).toEqual(["1", "2", "3", "4"]);
    expect(r.rejectedCaptions).toEqual([]);
    for (const [one, two] of [
      [r.figures[0], r.figures[1]],
      [r.figures[2], r.figures[3]],
    ]) {
      expect(one.figureBox!.right).toBeLessThan(two.labelBox.left);
      expect(two.figureBox!.left).toBeGreaterThan(one.captionBox.right);
      expect(one.captionBox.right).toBeLessThan(two.captionBox.left);
      expect(two.captionBox.bottom).toBe(one.captionBox.bottom);
    }
    expect(r.figures.map((f) => f.text)).toEqual([
      "Figure 1: The drift of the first instrument over the day.",
      "Figure 2: The drift of the second instrument over the day.",
      "Figure 3: The spread of the readings of the first kind of sample.",
      "Figure 4: The spread of the readings of the second kind of sample.",
    ]);
  });

  it("bounds a caption by its column when the next column's lines stand level with its rows, closer than two em", async () => {
    const r = await anchorsOf("caption-column-level");
    expect(r.figures.map((f) => f.label)).toEqual(["1"]);
    const f = r.figures[0];
    expect(f.captionBox.right).toBeLessThan(305);
    expect(f.captionBox.top - f.captionBox.bottom).toBeLessThan(9 * 2.5);
    expect(f.text).toBe(
      "Figure 1: The drift of the first instrument over the whole day, read every hour from the morning on.".slice(
        0,
        80,
      ),
    );
    expect(f.figureBox!.right).toBeLessThan(305);
  });
});
