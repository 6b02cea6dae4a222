// The document-wide caption step on hand-made candidates: which side of its caption a figure stands
// on, and when the figure box is left out.
import { describe, expect, it } from "vitest";
import { decideCaptions } from "../../src/layout/caption-decisions.js";
import type { CaptionFeatures } from "../../src/layout/caption-features.js";
import type { CaptionCandidate } from "../../src/layout/figure-captions.js";
import { CAPTION } from "./caption-features.js";

const box = (bottom: number, top: number) => ({ left: 100, bottom, right: 300, top });

/** What the page shows of a caption that starts its own block; the document's features still unknown. */
function pageFeatures(c: Omit<CaptionCandidate, "features" | "decidedBy">): CaptionFeatures {
  return {
    ...CAPTION,
    keyword: c.keyword,
    label: c.label,
    separator: c.separator,
    labelSetApart: c.labelSetApart,
    graphicsAbove: c.graphics.above !== undefined,
    graphicsBelow: c.graphics.below !== undefined,
    likeBody: undefined,
    documentMarksCaptions: undefined,
    graphicsOnDocumentSide: undefined,
    sharesAnchoredStyle: undefined,
  };
}

function candidate(
  label: string,
  graphics: CaptionCandidate["graphics"],
  extra: Partial<CaptionCandidate> = {},
): CaptionCandidate {
  const c: Omit<CaptionCandidate, "features" | "decidedBy"> = {
    label,
    page: 1,
    keyword: "Figure",
    separator: ":",
    text: `Figure ${label}: a caption`,
    fullText: `Figure ${label}: a caption`,
    labelBox: box(400, 410),
    captionBox: box(390, 410),
    graphics,
    style: "Figure|:|Times-Roman|10",
    labelFont: "Times-Roman",
    labelSize: 10,
    labelSetApart: false,
    rejections: [],
    ...extra,
  };
  return { ...c, features: pageFeatures(c), decidedBy: [] };
}

const above = (gap: number) => ({ gap, box: box(410 + gap, 600) });
const below = (gap: number) => ({ gap, box: box(100, 390 - gap) });

describe("the side a figure stands on", () => {
  it("takes the figure above when the document's captions sit under their figures", () => {
    const [one, , three] = decideCaptions(
      [
        candidate("1", { above: above(20), below: below(8) }),
        candidate("2", { above: above(8) }),
        candidate("3", { above: above(9) }),
      ],
      undefined,
    );
    expect(one.figureBox).toEqual(above(20).box);
    expect(three.figureBox).toEqual(above(9).box);
  });

  it("leaves the box out when graphics stand on both sides, the nearer below, and nothing tells", () => {
    const [one] = decideCaptions([candidate("1", { above: above(20), below: below(8) })], undefined);
    expect(one.figureBox).toBeUndefined();
    expect(one.figureBoxOmitted).toBe("both-sides");
  });

  it("leaves the box out when the only graphics are on the side the other captions do not use", () => {
    const decided = decideCaptions(
      [
        candidate("1", { above: above(8) }),
        candidate("2", { above: above(8) }),
        candidate("3", { below: below(8) }),
      ],
      undefined,
    );
    expect(decided[2].figureBox).toBeUndefined();
    expect(decided[2].figureBoxOmitted).toBe("unexpected-side");
    expect(decided[2].rejections).toEqual([]);
  });

  it("refuses a label with no separator set like the running text with no figure on the figures' side", () => {
    const body = { font: "Times-Roman", size: 10 };
    const plain = candidate("4", { below: below(8) }, { separator: "", style: "Figure||Times-Roman|10" });
    const bold = candidate(
      "5",
      {},
      { separator: "", labelFont: "Times-Bold", style: "Figure||Times-Bold|10" },
    );
    const decided = decideCaptions([candidate("1", { above: above(8) }), plain, bold], body);
    expect(decided[1].rejections).toEqual(["label-like-body-text"]);
    // Set apart, but with no graphics and no caption set like it: no figure.
    expect(decided[2].rejections).toEqual(["no-figure"]);
  });

  it("takes a label in fonts with no names as set apart when its font differs from the words after it", () => {
    // Type 3 bitmap fonts have no names: the running text and every label read as "".
    const body = { font: "", size: 10 };
    const nameless = { separator: "" as const, labelFont: "", style: "Figure|||10" };
    const withFigure = candidate("1", { above: above(8) }, { ...nameless, labelSetApart: true });
    const textOnly = candidate("2", {}, { ...nameless, labelSetApart: true });
    const sentence = candidate("3", {}, nameless);
    const decided = decideCaptions([withFigure, textOnly, sentence], body);
    expect(decided[0].rejections).toEqual([]);
    // No graphics, set like the caption that has them: a caption of a figure of text only.
    expect(decided[1].rejections).toEqual([]);
    expect(decided[2].rejections).toEqual(["label-like-body-text"]);
  });

  it("reads the figures' side from plain captions alone when no caption is marked as one", () => {
    const body = { font: "Times-Roman", size: 10 };
    const plain = { separator: "" as const, style: "Figure||Times-Roman|10" };
    const decided = decideCaptions(
      [
        candidate("1", { below: below(8) }, plain),
        candidate("2", { below: below(9) }, plain),
        // A paragraph opening with a reference, under another figure: graphics on the other side.
        candidate("41", { above: above(8) }, plain),
      ],
      body,
    );
    expect(decided.map((c) => c.rejections)).toEqual([[], [], ["label-like-body-text"]]);
    expect(decided[0].figureBox).toEqual(below(8).box);
  });
});
