/**
 * What the page shows about one equation-label candidate: a flat record of measured facts, computed
 * once from a text layer (equation-labels.ts) or from an OCR reading's word boxes
 * (ocr-equation-labels.ts), and read by one decision's predicates (equation-decision.ts). Lengths are
 * in PDF points. A feature of the content is measured only where there is content (and, for how it
 * stands in its column, a column); one a rule reads only in some cases only then: `undefined` where
 * it was not measured. A reading that cannot measure a feature at all (an OCR reading has no fonts
 * and no graphics objects) leaves it `undefined` too, and a waiver is read as `=== true`: an unknown
 * never waives a refusal. Features only one reading measures say which, and why.
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
  /**
   * Characters of the content in a math font or math symbols (an OCR reading: signs of mathematics
   * read beside the label); undefined where nothing was measured (an OCR reading measures
   * mathematics only beside content).
   */
  mathChars: number | undefined;
  /** Their share of the content's characters (undefined where mathChars is). */
  mathShare: number | undefined;
  /** Fraction bars over or beside the content (an OCR reading: a fraction's parts read stacked, its bar lost). */
  fractionBars: number;
  /**
   * Mathematics stands around the label within a few lines (a display whose row is words); an OCR
   * reading: a sign taller than the words around it, or a finer reading of the band beside the label.
   */
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
  /**
   * The label sits on or against a figure's graphics. Undefined on an OCR reading (a scan's graphics
   * are pixels, not objects): there the stand-in is `no-math`, as a drawing gives no signs read as
   * mathematics beside a label, and the label is read again from crops of it.
   */
  graphicsBeside: boolean | undefined;
  /**
   * OCR reading only: content closer to the label than a display leaves it (under half a quad; under
   * a quad where it neither fills its line as mathematics nor is a centred display pressed toward
   * the label). The text layer tells this by fonts and its column (`setAgainstLabel`, `marginProse`).
   */
  crowded: boolean | undefined;
  /**
   * OCR reading only: the content is a sentence of words (four words of prose or more, most of the
   * row's, or a share of its characters in words), however OCR reads its stray signs. The text layer
   * tells words from mathematics by fonts (`proseWords`, `marginProse`).
   */
  proseRow: boolean | undefined;
  /**
   * OCR reading only, a waiver: the content fills its column as mathematics, from the margin to
   * within two em of the label, or the label alone on its line closes a row that starts at the
   * margin (a display too long for its line). The text layer waives only a display row so
   * (`displayRow`): a formula filling its line must still be centred there, as its fonts show more.
   */
  fillsColumn: boolean | undefined;
}

/** The features of the content measured after the label's own, each unknown until measured. */
export type ContentFeatures = Pick<
  EquationFeatures,
  | "proseWords"
  | "gapPt"
  | "marginProse"
  | "setAgainstLabel"
  | "alignedRow"
  | "formulaRow"
  | "listItem"
  | "fillsAsDisplay"
  | "continuedBelow"
  | "continuedRow"
  | "setApart"
  | "setApartInWider"
  | "displayRow"
  | "tabular"
  | "crowded"
  | "proseRow"
  | "fillsColumn"
>;

/** Every content feature unknown: where a reading starts, and what it leaves when there is no content. */
export const CONTENT_UNMEASURED: Readonly<ContentFeatures> = Object.freeze({
  proseWords: undefined,
  gapPt: undefined,
  marginProse: undefined,
  setAgainstLabel: undefined,
  alignedRow: undefined,
  formulaRow: undefined,
  listItem: undefined,
  fillsAsDisplay: undefined,
  continuedBelow: undefined,
  continuedRow: undefined,
  setApart: undefined,
  setApartInWider: undefined,
  displayRow: undefined,
  tabular: undefined,
  crowded: undefined,
  proseRow: undefined,
  fillsColumn: undefined,
});
