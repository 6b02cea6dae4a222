// The explain overlay is a function from explained candidates and the image's transform to shapes:
// one label box per candidate on the image, coloured by the verdict, with its display and frame, and
// a tag naming the refusing predicates beside each rejected one only.
import { describe, expect, it } from "vitest";
import type { RenderTransform } from "../../src/document/render-transform.js";
import {
  type ExplainedCandidate,
  explainOutlines,
  explainOverlay,
} from "../../src/layout/equation-overlay.js";
import { explainSvg } from "../../src/operations/explain-svg.js";

// A US-letter page at 144 dpi: two pixels a point, y turned downwards.
const t: RenderTransform = {
  page: 1,
  rotation: 0,
  cropBox: { left: 0, bottom: 0, right: 612, top: 792 },
  dpi: 144,
  scaleX: 2,
  scaleY: 2,
  offsetXPx: 0,
  offsetYPx: 0,
};
const W = 1224;
const H = 1584;

const accepted: ExplainedCandidate = {
  kind: "equation",
  label: "1",
  printed: "(1)",
  accepted: true,
  labelBox: { left: 520, bottom: 600, right: 540, top: 612 },
  displayBox: { left: 250, bottom: 595, right: 360, top: 615 },
  frame: { left: 72, bottom: 72, right: 540, top: 720 },
  decidedBy: [],
};
const rejected: ExplainedCandidate = {
  kind: "equation",
  label: "2",
  printed: "(2).",
  accepted: false,
  labelBox: { left: 100, bottom: 400, right: 120, top: 412 },
  decidedBy: ["text-after", "no-math"],
};

describe("explain overlay", () => {
  it("draws each candidate's label, display and frame in the image's pixels, by verdict", () => {
    const o = explainOverlay([accepted, rejected], t, W, H);
    const labels = o.rects.filter((r) => r.role === "label");
    expect(labels.map((r) => [r.candidate, r.class])).toEqual([
      [0, "accepted"],
      [1, "rejected"],
    ]);
    expect(labels[0]).toMatchObject({ x: 1040, y: 2 * (792 - 612), width: 40, height: 24 });
    expect(o.rects.filter((r) => r.role === "display").map((r) => r.candidate)).toEqual([0]);
    expect(o.rects.filter((r) => r.role === "frame")).toHaveLength(1);
    // Frames first, so the boxes are drawn over them.
    expect(o.rects[0].role).toBe("frame");
  });

  it("draws a caption's Figure N, its block and its figure, and tags a refused one", () => {
    const caption: ExplainedCandidate = {
      kind: "caption",
      label: "3",
      printed: "Figure 3",
      accepted: true,
      labelBox: { left: 72, bottom: 300, right: 110, top: 310 },
      displayBox: { left: 72, bottom: 280, right: 540, top: 310 },
      figureBox: { left: 150, bottom: 320, right: 460, top: 560 },
      decidedBy: [],
    };
    const refused = { ...caption, accepted: false, figureBox: undefined, decidedBy: ["in-paragraph"] };
    const o = explainOverlay([caption, refused], t, W, H);
    expect(o.rects.map((r) => [r.candidate, r.role])).toEqual([
      [0, "figure"],
      [0, "block"],
      [0, "caption"],
      [1, "block"],
      [1, "caption"],
    ]);
    expect(o.tags.map((g) => g.text)).toEqual(["Figure 3 in-paragraph"]);
    expect(explainOutlines([caption], 150).map((x) => x.box)).toEqual([
      caption.figureBox,
      caption.displayBox,
      caption.labelBox,
    ]);
  });

  it("draws a frame its candidates share once", () => {
    const o = explainOverlay([accepted, { ...rejected, frame: accepted.frame }], t, W, H);
    expect(o.rects.filter((r) => r.role === "frame")).toHaveLength(1);
  });

  it("tags a label at the image's top below it", () => {
    const top = { ...rejected, labelBox: { left: 100, bottom: 782, right: 120, top: 792 } };
    const [tag] = explainOverlay([top], t, W, H).tags;
    expect(tag.y).toBe(20 + 14);
  });

  it("tags only rejected candidates, on the side of the label with room", () => {
    const o = explainOverlay(
      [accepted, rejected, { ...rejected, labelBox: { ...accepted.labelBox } }],
      t,
      W,
      H,
    );
    expect(o.tags.map((g) => [g.candidate, g.text, g.anchor])).toEqual([
      [1, "(2). text-after,no-math", "start"],
      [2, "(2). text-after,no-math", "end"],
    ]);
    expect(o.tags[0]).toMatchObject({ x: 200, y: 2 * (792 - 412) - 3 });
    expect(o.tags[1]).toMatchObject({ x: 1080, y: 2 * (792 - 612) - 3 });
  });

  it("leaves out a candidate the image does not show", () => {
    const region: RenderTransform = { ...t, offsetXPx: 0, offsetYPx: 2 * (792 - 620) };
    const o = explainOverlay([accepted, rejected], region, W, 2 * 30);
    expect(o.rects.filter((r) => r.role === "label").map((r) => r.candidate)).toEqual([0]);
    expect(o.tags).toEqual([]);
  });

  it("writes an SVG with the image behind the boxes and escaped tags", () => {
    const odd = { ...rejected, printed: "(<&\u0001>)" };
    const svg = explainSvg(explainOverlay([accepted, odd], t, W, H), new Uint8Array([1, 2, 3]));
    expect(svg).toContain('xlink:href="data:image/png;base64,AQID"');
    expect(svg.match(/<rect class="label accepted"/g)).toHaveLength(1);
    expect(svg.match(/<rect class="label rejected"/g)).toHaveLength(1);
    expect(svg).toContain(">(&#60;&#38;&#62;) text-after,no-math</text>");
  });

  it("outlines for the pixels: each frame once, then displays and labels in the verdict's colour", () => {
    const o = explainOutlines([accepted, { ...rejected, frame: accepted.frame }], 150);
    expect(o.map((x) => [x.box, x.rgb[0] > x.rgb[1] ? "red" : "not red", x.lineWidthPx])).toEqual([
      [accepted.frame, "not red", 2],
      [accepted.displayBox, "not red", 2],
      [accepted.labelBox, "not red", 4],
      [rejected.labelBox, "red", 4],
    ]);
  });
});
