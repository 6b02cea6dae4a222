// A figure caption's features built by hand, for the decision's tests: "Figure 3: …" opening its own
// block under its figure, in a document that marks its captions. Accepted as it stands.
import type { CaptionFeatures } from "../../src/layout/caption-features.js";

export const CAPTION: CaptionFeatures = {
  emPt: 10,
  keyword: "Figure",
  languages: ["en", "fr"],
  label: "3",
  separator: ":",
  spacedSeparator: false,
  textBefore: false,
  columnBeside: undefined,
  captionBeside: undefined,
  bodyLineAbove: false,
  paragraphRowAbove: false,
  centredInColumn: false,
  runsIntoParagraph: false,
  captionText: true,
  labelSetApart: true,
  graphicsAbove: true,
  graphicsBelow: false,
  likeBody: false,
  documentMarksCaptions: true,
  graphicsOnDocumentSide: true,
  sharesAnchoredStyle: true,
};
