import { describe, expect, it } from "vitest";
import { checkFigure } from "../../src/checks/figure.js";
import { subfigurePanels } from "../../src/layout/subfigure-panels.js";
import { anchorsOf } from "./support.js";

describe("caption layouts", () => {
  it("reads a caption set sideways, with its turned figure, in default user space", async () => {
    const r = await anchorsOf("caption-layouts");
    const turned = r.figures.find((f) => f.label === "4")!;
    expect(turned.page).toBe(2);
    expect(turned.text).toBe("Figure 4: The whole day of measurements, set sideways.");
    // Turned a quarter: the caption runs up the page, taller than it is wide, beside its figure.
    expect(turned.captionBox.top - turned.captionBox.bottom).toBeGreaterThan(
      (turned.captionBox.right - turned.captionBox.left) * 5,
    );
    expect(turned.figureBox).toBeDefined();
    expect(turned.figureBox!.left).toBeGreaterThan(turned.captionBox.right);
  });

  it("takes the figure below captions that a document sets above their figures", async () => {
    const r = await anchorsOf("caption-layouts");
    for (const label of ["1", "2", "3"]) {
      const f = r.figures.find((x) => x.label === label)!;
      expect(f.figureBox!.top).toBeLessThan(f.captionBox.bottom);
    }
  });

  it("reads subcaptions that share one text line as the figure's panels", async () => {
    const r = await anchorsOf("caption-layouts");
    const two = r.figures.find((f) => f.label === "2")!;
    expect(two.panels?.map((p) => [p.letter, p.source])).toEqual([
      ["a", "figure-area"],
      ["b", "figure-area"],
    ]);
    expect(checkFigure(r, { label: "2b" }).verdict).toBe("PASS");
    expect(checkFigure(r, { label: "2c" }).verdict).toBe("FAIL");
  });

  it("refuses a line opening with Figure 9. under a short line of its own paragraph", async () => {
    const r = await anchorsOf("caption-layouts");
    expect(r.rejectedCaptions.find((c) => c.label === "9")?.reasons).toEqual(["inside-paragraph"]);
  });

  it("counts panels only in order from (a): a lone (s) or a (c) with no (b) is no panel", () => {
    const box = { left: 100, bottom: 300, right: 300, top: 500 };
    const mark = (letter: string) => ({ letter, box: { left: 150, bottom: 350, right: 160, top: 360 } });
    const caption = {
      figureBox: box,
      captionBox: { left: 100, bottom: 280, right: 300, top: 290 },
      fullText: "Figure 1: Time (s) against the signal.",
      labelSize: 10,
    } as unknown as Parameters<typeof subfigurePanels>[0];
    expect(subfigurePanels(caption, [mark("s")])).toEqual([]);
    expect(subfigurePanels(caption, [mark("a"), mark("c")]).map((p) => p.letter)).toEqual(["a"]);
  });
});
