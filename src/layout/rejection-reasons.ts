/** Why an equation-label candidate was not accepted: a closed set, each with what it means. */

export const REJECTION_REASONS = [
  "graphics-beside-label",
  "no-column",
  "no-display",
  "no-math",
  "not-at-column-edge",
  "not-centred",
  "page-margin",
  "prose-beside-label",
  "superscript",
  "tabular",
  "text-after-label",
] as const;

export type RejectionReason = (typeof REJECTION_REASONS)[number];

export const REJECTION_MEANINGS: Record<RejectionReason, string> = {
  "graphics-beside-label": "the token sits on or against a figure's graphics",
  "no-column": "the token stands in no column of running text",
  "no-display": "the line is running text, not a displayed equation set apart from it",
  "no-math": "nothing beside the token is mathematics (no math font, math symbol or fraction bar)",
  "not-at-column-edge":
    "the token is not at the right (or, for left-side labels, the left) edge of its column",
  "not-centred": "the line beside the token is neither centred nor indented as a display",
  "page-margin": "the token is outside the page's text block (running head, foot, margin)",
  "prose-beside-label":
    "the content beside the token is words with hardly any mathematics (a numbered example sentence or list item)",
  superscript:
    "the token is set smaller than the character just before it and raised above its baseline: a superscript of its line (`w^{(2)}`), not a label",
  tabular: "the line is a table row",
  "text-after-label": "text follows the token on its line",
};
