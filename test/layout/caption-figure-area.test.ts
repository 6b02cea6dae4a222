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

  it("still refuses a mention inside the narrowed column", async () => {
    const r = await anchorsOf("caption-wrapped");
    expect(r.rejectedCaptions.find((c) => c.label === "4")?.reasons).toEqual(["not-line-start"]);
    expect(checkFigure(r, { label: "4" }).verdict).toBe("FAIL");
  });
});
