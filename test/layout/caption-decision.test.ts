// The decision on a figure-caption candidate, predicate by predicate, on features built by hand (no
// page): each predicate refuses what it names and holds for nothing else, each waiver keeps its
// predicate from holding, an unknown waives nothing, and a stage is read only when the stages
// before it refuse nothing.
import { describe, expect, it } from "vitest";
import { CAPTION_PREDICATES, decideCaption } from "../../src/layout/caption-decision.js";
import { type CaptionFeatures, keywordLanguages } from "../../src/layout/caption-features.js";
import { CAPTION } from "./caption-features.js";

const caption = CAPTION;

/** A sentence opening with a reference: "Figure 3 shows …", in the running text's font. */
const plain: Partial<CaptionFeatures> = { separator: "", labelSetApart: false, likeBody: true };

const cases: Record<string, { holds: Partial<CaptionFeatures>; waived?: Partial<CaptionFeatures> }> = {
  "text-before": {
    holds: { textBefore: true, columnBeside: false, captionBeside: false },
    waived: { textBefore: true, columnBeside: true },
  },
  "in-paragraph": {
    holds: { bodyLineAbove: true, runsIntoParagraph: undefined },
    waived: { bodyLineAbove: true, centredInColumn: true },
  },
  "runs-on": { holds: { runsIntoParagraph: true } },
  "no-text": { holds: { captionText: false } },
  "plain-in-marking-document": {
    holds: plain,
    waived: { ...plain, documentMarksCaptions: false, graphicsOnDocumentSide: true },
  },
  "no-graphics": {
    holds: { graphicsAbove: false, sharesAnchoredStyle: false },
    waived: { graphicsAbove: false, sharesAnchoredStyle: true },
  },
};

describe("caption decision", () => {
  it("accepts a marked caption that opens its block by its figure", () => {
    expect(decideCaption(caption)).toEqual({ reasons: [], decidedBy: [] });
  });

  it("has a case for every predicate of the table", () => {
    expect(Object.keys(cases).sort()).toEqual(CAPTION_PREDICATES.map((p) => p.name).sort());
  });

  for (const p of CAPTION_PREDICATES) {
    const c = cases[p.name];
    it(`${p.name}: refuses for ${p.reason} and nothing else holds`, () => {
      const decision = decideCaption({ ...caption, ...c.holds });
      expect(decision.decidedBy).toEqual([p.name]);
      expect(decision.reasons).toEqual([p.reason]);
    });
    if (c.waived)
      it(`${p.name}: waived by what its features name`, () => {
        expect(decideCaption({ ...caption, ...c.waived }).decidedBy).toEqual([]);
      });
  }

  it("never waives on an unknown", () => {
    const unknown = { textBefore: true, columnBeside: undefined, captionBeside: undefined };
    expect(decideCaption({ ...caption, ...unknown }).decidedBy).toEqual(["text-before"]);
    expect(
      decideCaption({ ...caption, graphicsAbove: false, sharesAnchoredStyle: undefined }).decidedBy,
    ).toEqual(["no-graphics"]);
  });

  it("reads a stage only when the stages before it refuse nothing, and no stage past the one asked", () => {
    const refusedOnPage = { ...caption, ...plain, bodyLineAbove: true, graphicsAbove: false };
    expect(decideCaption(refusedOnPage).decidedBy).toEqual(["in-paragraph"]);
    const noGraphics = { ...caption, graphicsAbove: false, sharesAnchoredStyle: undefined };
    expect(decideCaption(noGraphics, "formatting").decidedBy).toEqual([]);
    expect(decideCaption({ ...caption, ...plain }, "page").decidedBy).toEqual([]);
  });

  it("lists every page predicate that holds, in the table's order", () => {
    const decision = decideCaption({ ...caption, textBefore: true, bodyLineAbove: true, captionText: false });
    expect(decision.reasons).toEqual(["not-line-start", "inside-paragraph", "no-caption-text"]);
  });

  it("knows a keyword's languages from the caption tables, in either case", () => {
    expect(keywordLanguages("Abb.")).toEqual(["de"]);
    expect(keywordLanguages("FIGURA")).toEqual(["es", "it", "pt"]);
    expect(keywordLanguages("Рис.")).toEqual(["ru"]);
    expect(keywordLanguages("Fig.")).toContain("en");
    expect(keywordLanguages("FIG")).toEqual(keywordLanguages("Fig."));
  });
});
