/**
 * What the page shows about one equation-label candidate: a flat record of measured facts, computed
 * once (equation-labels.ts) and read by the decision's predicates (equation-decision.ts). Lengths are
 * in PDF points. A feature of the content is measured only where there is content (and, for how it
 * stands in its column, a column); one a rule reads only in some cases only then: `undefined` where
 * it was not measured.
 */
export interface EquationFeatures {
  /** The label's font size, in points: what the tolerances' em is. */
  emPt: number;
  /** A column of running text (or a text width the document's labels show) holds the label. */
  inColumn: boolean;
  /** A column of text stands past a gutter right of the label: the label's column ends at the label. */
  columnBeside: boolean;
  /** The label stands outside the page's text block (running head, foot, margin note). */
  inPageMargin: boolean;
  /** The label is a superscript of the character before it (`w^{(2)}`). */
  superscript: boolean;
  /** A word naming the label stands before it ("Equation (3)"). */
  named: boolean;
  /** The label stands on a line of its own between two rows of a display. */
  betweenRows: boolean;
  /** The label stands at its column's right edge. */
  atRightEdge: boolean;
  /** The label stands at its column's left edge. */
  atLeftEdge: boolean;
  /** Alone at its row's end in the column's right half, far from what precedes it (a right tab). */
  afterTab: boolean;
  /** The side the label is set on, when it stands at an edge or after a tab. */
  side: "right" | "left" | undefined;
  /** Text follows the closing parenthesis without a space. */
  textJoined: boolean;
  /** Characters stand after the label on its line. */
  textAfter: boolean;
  /** Waiver: a left-side label with nothing before it and its display clear of it after it. */
  leftLabelClear: boolean;
  /** Content stands beside the label (on its line, or the row it closes or opens). */
  hasContent: boolean;
  /** The label is alone on its line and closes the row above (or, left side, opens the row below). */
  closesBlock: boolean;
  /** The content stands after the label (a left-side label's display). */
  contentAfter: boolean;
  /** Characters of the content in a math font or math symbols. */
  mathChars: number;
  /** Their share of the content's characters. */
  mathShare: number;
  /** Fraction bars over or beside the content. */
  fractionBars: number;
  /** Mathematics stands around the label within a few lines (a display whose row is words). */
  mathNearby: boolean;
  /** The content is words of running text (measured only where a rule reads it). */
  proseWords: boolean | undefined;
  /** Gap between the label and its content, in points (in a column, with content). */
  gapPt: number | undefined;
  /** The content starts at its column's left margin and is mostly not mathematics. */
  marginProse: boolean | undefined;
  /** The content runs up to the label as running text does. */
  setAgainstLabel: boolean | undefined;
  /** The row is aligned with another row of a display (1), ends in a numbered such row (2), or neither (0). */
  alignedRow: number | undefined;
  /** A formula filling its line: no words, a relation sign. */
  formulaRow: boolean | undefined;
  /** A list item: a bullet or number opens it. */
  listItem: boolean | undefined;
  /** Waiver: fills its line as a display does (a numbered aligned row or a formula row, not a list item). */
  fillsAsDisplay: boolean | undefined;
  /** The row below opens with a relation sign set under this row's (measured only where read). */
  continuedBelow: boolean | undefined;
  /** Waiver: a split display's first row, closed by its label and continued below. */
  continuedRow: boolean | undefined;
  /** Waiver: centred or indented in the label's frame. */
  setApart: boolean | undefined;
  /** Waiver: centred or indented in a wider frame that holds the content (measured where read). */
  setApartInWider: boolean | undefined;
  /** Waiver: a row of an aligned display (opens with a relation, continued, or aligned). */
  displayRow: boolean | undefined;
  /** The label's row is a row of a table. */
  tabular: boolean | undefined;
  /** The label sits on or against a figure's graphics. */
  graphicsBeside: boolean;
}
