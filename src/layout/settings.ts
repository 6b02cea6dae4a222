/**
 * The tolerances the equation-label rules judge a page by, in one place. Each name ends in its
 * unit: `Em` is a multiple of the label's font size, `Pt` PDF points, `Share` a fraction of a
 * whole (of characters, of a width, of a height). Each value says why it is what it is.
 */
export const EQUATION_SETTINGS = Object.freeze({
  /** How far a token may stand from an edge and still stand at it: half an em (a protruded parenthesis), */
  edgeToleranceEm: 0.5,
  /** ...and never less than 2 pt (small labels, rounding of glyph boxes). */
  edgeToleranceMinPt: 2,
  /** The size taken for a token whose glyphs report none: the commonest body size. */
  unsizedEmPt: 10,
  /** Boxes closer than this touch: glyph boxes are rounded and overlap by a little at kerned pairs. */
  touchPt: 0.5,
  /** A token's characters stand on one baseline: within a fifth of an em (italic, subscripted labels differ less). */
  tokenBaselineEm: 0.2,
  /** A token's characters run left to right: none starts more than a fifth of an em left of the one before. */
  tokenBacktrackEm: 0.2,
  /** The label's height searched for its row: its middle half (ascenders and descenders of rows above and below stay out). */
  labelCoreShare: 0.25,
  /** How far past its frame's edges a label's row is read: an em (a protruded glyph, a hanging parenthesis). */
  frameReachEm: 1,
  /** Below this gap words running up to a label are a line of running text (justified spaces stretch to about 2 em). */
  proseGapEm: 2.5,
  /** Below this gap content is set against its label: no display leaves less than a quad. */
  nearLabelEm: 1,
  /** Least gap between a label set after a tab and the content before it (word processors' right tabs). */
  tabGapEm: 2,
  /** Least gap between a left-side label and its equation (amsmath's multline sets 10 pt). */
  leftGapEm: 0.75,
  /** The least gap when what follows a left-side label is mathematics (no paragraph opens so). */
  leftGapMathEm: 0.5,
  /** Share of mathematics past which what follows a left-side label is mathematics. */
  leftMathShare: 0.5,
  /** A line starting within this of its frame's left edge starts at the margin (a paragraph indent is 1-2 em). */
  marginStartEm: 2.5,
  /** Below this share of mathematics a line starting at the margin reads as running text. */
  proseShare: 0.5,
  /** Least share of mathematics for a row to be tested as a row of an aligned display. */
  alignedShare: 0.15,
  /** Least share of mathematics for a row opening with a relation to be a display row. */
  displayRowShare: 0.3,
  /** A display's centre lies within this of its frame's centre (rounding, a label's width beside it)... */
  centredEm: 1.5,
  /** ...or within this share of the frame's width, whichever is more (wide frames centre less exactly). */
  centredShare: 0.06,
  /** Content starting this far right of its frame's left edge is indented as a display is (an indent is less). */
  indentEm: 1.5,
  /** A superscript is at most this share of the size of the character before it (TeX's scripts are 0.7). */
  superscriptSizeShare: 0.85,
  /** ...its baseline raised by this share of that size at the least. */
  superscriptRiseShare: 0.2,
  /** ...and set against it: less than this share of its size away (a label stands half a quad off at the least). */
  superscriptGapShare: 0.3,
  /** Characters smaller than this are scripts of rows above and below, not of the label's line. */
  scriptSizeEm: 0.8,
  /** Characters whose baselines lie this far from the label's stand on another line. */
  otherLineEm: 0.5,
  /** Characters all above the label by more than this are the row above's descenders. */
  rowAboveEm: 0.6,
  /** A page's own frame counts for a label within this height of it (a display between two text stretches). */
  frameNearEm: 15,
  /** Labels whose right edges lie within this stand in the same place (a display's rows above and below). */
  sameEdgeEm: 2,
  /** Least room between the text block's left edge and a display centred in the text width. */
  displayClearanceEm: 2.5,
  /** How far past the mirrored edge of the text block a label may stand (the block read from indented items). */
  mirrorSlackEm: 1,
  /** Least gutter between a label and a column of text right of it (beamer's columns leave 1.3 em). */
  gutterEm: 1,
  /** How far above and below the label the lines of a column beside it are looked for (a few lines). */
  besideColumnReachEm: 6,
  /** How far above and below the label's row no line may cross the gutter: the rows next to it, whose boxes come this close. */
  gutterRowEm: 0.5,
  /** Least letters of a line of words beside a label (a column's shortest lines are a word or two). */
  wordsLineLetters: 6,
  /** Least share of letters among a line of words' characters (mathematics is signs and digits too). */
  wordsLineShare: 0.8,
  /** A token within this of a text block's top or bottom stands in it (a display reaching a line past the body text). */
  blockReachEm: 1.2,
  /** The rows just above and below the label's: a line's height away. */
  nextRowEm: 1.2,
  /** A fraction bar is at most this share of its column's width (a wider path is a table's rule)... */
  barMaxShare: 0.6,
  /** ...or, without a column, this wide. */
  barMaxEm: 30,
  /** A fraction bar is at most this thick (TeX's bars are 0.4-0.8 pt; a filled shape is thicker). */
  barThickPt: 2,
  /** A fraction bar is at least this wide (a minus sign drawn as a path is shorter). */
  barMinEm: 0.5,
  /** A fraction bar stands within this of the label's line (a fraction's bar sits on its axis, its parts above and below). */
  barReachEm: 0.8,
  /** A fraction bar may begin this far past the content on the label's line (a fraction ending the display). */
  barPastEm: 0.5,
  /** Graphics within this of the label touch it. */
  graphicsPadEm: 0.5,
  /** A thin path longer than this is a rule beside or under the text, not a figure's stroke. */
  ruleLengthEm: 3,
  /** Least width of a shape holding a label for it to be a box the display is set on (a display's width). */
  backgroundWidthEm: 8,
  /** A wider frame's right edge lies at most this share of its width past a label after a tab (a tab stop inside the margin). */
  tabStopShare: 0.25,
  /** Least gap to the label's left of content centred beside it (a display leaves a quad at the least). */
  centredBesideGapEm: 1,
});
