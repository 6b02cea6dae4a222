/**
 * The decision on an equation-label candidate, as a table: each row a named predicate over the
 * candidate's features (equation-features.ts) and the reasons it refuses the candidate for. A
 * candidate no predicate holds for is accepted. Waivers are features too (a row that fills its
 * line as a display, a row continued below): a predicate reads them by name.
 */
import type { EquationFeatures } from "./equation-features.js";
import { REJECTION_REASONS, type RejectionReason } from "./rejection-reasons.js";

export interface EquationPredicate {
  name: string;
  /** The reasons the candidate is refused for when the predicate holds. */
  reasons: readonly RejectionReason[];
  /** What the predicate says of the candidate, in words. */
  says: string;
  holds: (f: EquationFeatures) => boolean;
}

export const EQUATION_PREDICATES: readonly EquationPredicate[] = [
  {
    name: "outside-columns",
    reasons: ["no-column"],
    says: "the label stands in no column and at no text width the document shows",
    holds: (f) => !f.inColumn,
  },
  {
    name: "in-page-margin",
    reasons: ["page-margin"],
    says: "the label stands outside the page's text block",
    holds: (f) => f.inPageMargin,
  },
  {
    name: "raised-small",
    reasons: ["superscript"],
    says: "the label is smaller than the character before it, raised and set against it",
    holds: (f) => f.superscript,
  },
  {
    name: "text-joined",
    reasons: ["text-after-label"],
    says: "text follows the closing parenthesis without a space",
    holds: (f) => f.textJoined,
  },
  {
    name: "text-after",
    reasons: ["text-after-label"],
    says: "text follows the label on its line, and it is not a left-side label's display clear of it",
    holds: (f) => f.textAfter && !f.leftLabelClear,
  },
  {
    name: "off-edge",
    reasons: ["not-at-column-edge"],
    says: "the label stands at neither edge of its column and after no tab",
    holds: (f) => f.inColumn && !f.atRightEdge && !f.atLeftEdge && !f.afterTab,
  },
  {
    name: "nothing-beside",
    reasons: ["no-display"],
    says: "nothing stands beside the label, above it or (left side) below it",
    holds: (f) => !f.hasContent,
  },
  {
    name: "no-math",
    reasons: ["no-math"],
    says: "no math character or fraction bar measured beside the label, and (beside content) none around it",
    holds: (f) => f.mathChars === 0 && f.fractionBars === 0 && !(f.hasContent && f.mathNearby),
  },
  {
    name: "words-after-left-label",
    reasons: ["prose-beside-label"],
    says: "a left-side label's content is words with a stray symbol, without fraction bars",
    holds: (f) =>
      f.hasContent &&
      f.side === "left" &&
      (f.mathChars ?? 0) > 0 &&
      f.fractionBars === 0 &&
      f.proseWords === true,
  },
  {
    name: "sentence-beside",
    reasons: ["prose-beside-label"],
    says: "the content is a sentence of words, as an OCR reading shows one (proseRow)",
    holds: (f) => f.hasContent && f.proseRow === true,
  },
  {
    name: "crowded",
    reasons: ["no-display"],
    says: "the content stands closer to the label than a display leaves it, as an OCR reading shows (crowded)",
    holds: (f) => f.hasContent && f.crowded === true,
  },
  {
    name: "running-line",
    reasons: ["no-display"],
    says: "a line of running text runs up to the label, and does not fill its line as a display does",
    holds: (f) =>
      f.hasContent &&
      f.inColumn &&
      !f.closesBlock &&
      f.marginProse === true &&
      f.setAgainstLabel === true &&
      !f.fillsAsDisplay,
  },
  {
    name: "closes-running-text",
    reasons: ["no-display"],
    says: "the label on its own line closes a row of running text (a list item, or no continued or formula row)",
    holds: (f) =>
      f.hasContent &&
      f.inColumn &&
      f.closesBlock &&
      f.marginProse === true &&
      f.fractionBars === 0 &&
      (f.listItem === true || !(f.continuedRow || f.formulaRow)),
  },
  {
    name: "not-set-apart",
    reasons: ["not-centred"],
    says: "the content is neither centred nor indented in its frame or a wider one, nor a display row, nor (an OCR reading) fills its column as mathematics",
    holds: (f) =>
      f.hasContent &&
      f.inColumn &&
      f.setApart !== true &&
      f.setApartInWider !== true &&
      f.displayRow !== true &&
      f.fillsColumn !== true,
  },
  {
    name: "table-row",
    reasons: ["tabular"],
    says: "the label's row is a row of a table",
    holds: (f) => f.hasContent && f.tabular === true,
  },
  {
    name: "on-graphics",
    reasons: ["graphics-beside-label"],
    says: "the label sits on or against a figure's graphics",
    holds: (f) => f.graphicsBeside === true,
  },
];

const ORDER = [...REJECTION_REASONS].sort();

export interface EquationDecision {
  /** Why the candidate is refused, sorted; empty for an accepted one. */
  reasons: RejectionReason[];
  /** The predicates that held, in the table's order. */
  decidedBy: string[];
}

export function decideEquation(f: EquationFeatures): EquationDecision {
  const decidedBy: string[] = [];
  const found = new Set<RejectionReason>();
  for (const p of EQUATION_PREDICATES)
    if (p.holds(f)) {
      decidedBy.push(p.name);
      for (const r of p.reasons) found.add(r);
    }
  return { reasons: ORDER.filter((r) => found.has(r)), decidedBy };
}
