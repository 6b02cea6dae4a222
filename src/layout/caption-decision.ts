/**
 * The decision on a figure-caption candidate, as a table: each row a named predicate over the
 * candidate's features (caption-features.ts) and the reason it refuses the candidate for. The rows
 * come in stages, each read only when the stages before refuse nothing: the page's, then the
 * document's formatting (which needs every page read), then the figure (which needs the captions
 * the formatting step accepted). A candidate no predicate holds for is a caption.
 */
import type { CaptionFeatures } from "./caption-features.js";
import { plainLabel } from "./caption-features.js";
import type { CaptionRejection } from "./caption-rejections.js";

export const CAPTION_STAGES = ["page", "formatting", "figure"] as const;
export type CaptionStage = (typeof CAPTION_STAGES)[number];

export interface CaptionPredicate {
  name: string;
  stage: CaptionStage;
  reason: CaptionRejection;
  /** What the predicate says of the candidate, in words. */
  says: string;
  holds: (f: CaptionFeatures) => boolean;
}

export const CAPTION_PREDICATES: readonly CaptionPredicate[] = [
  {
    name: "text-before",
    stage: "page",
    reason: "not-line-start",
    says: "text stands before the label on its row, neither a column beside it nor another caption's row",
    holds: (f) => f.textBefore && f.columnBeside !== true && f.captionBeside !== true,
  },
  {
    name: "in-paragraph",
    stage: "page",
    reason: "inside-paragraph",
    says: "a line of running text or a paragraph's row stands just above, and the row is not centred",
    holds: (f) => f.centredInColumn !== true && (f.bodyLineAbove || f.paragraphRowAbove === true),
  },
  {
    name: "runs-on",
    stage: "page",
    reason: "runs-into-paragraph",
    says: "no paragraph holds it, but its rows run on at the running text's leading into the next paragraph",
    holds: (f) => f.runsIntoParagraph === true,
  },
  {
    name: "no-text",
    stage: "page",
    reason: "no-caption-text",
    says: "no letters follow the label on its line or the next",
    holds: (f) => !f.captionText,
  },
  {
    name: "plain-in-marking-document",
    stage: "formatting",
    reason: "label-like-body-text",
    says: "a plain label (no separator, set as the running text) where the document marks its captions, or with no graphics on its figures' side",
    holds: (f) => plainLabel(f) && (f.documentMarksCaptions === true || f.graphicsOnDocumentSide !== true),
  },
  {
    name: "no-graphics",
    stage: "figure",
    reason: "no-figure",
    says: "no graphics beside it, and its formatting is not that of a caption that has them",
    holds: (f) => !f.graphicsAbove && !f.graphicsBelow && f.sharesAnchoredStyle !== true,
  },
];

export interface CaptionDecision {
  /** Why the candidate is refused, in the table's order; empty for a caption. */
  reasons: CaptionRejection[];
  /** The predicates that held, in the table's order. */
  decidedBy: string[];
}

/** The decision through a stage: the stages after it are not read (their features may be unknown yet). */
export function decideCaption(f: CaptionFeatures, through: CaptionStage = "figure"): CaptionDecision {
  const reasons: CaptionRejection[] = [];
  const decidedBy: string[] = [];
  for (const stage of CAPTION_STAGES) {
    for (const p of CAPTION_PREDICATES)
      if (p.stage === stage && p.holds(f)) {
        decidedBy.push(p.name);
        if (!reasons.includes(p.reason)) reasons.push(p.reason);
      }
    if (reasons.length > 0 || stage === through) break;
  }
  return { reasons, decidedBy };
}
