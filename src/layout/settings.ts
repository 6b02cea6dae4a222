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

/**
 * The tolerances the equation-label rules judge an OCR reading by (ocr-equation-labels.ts), where the
 * em is the reading's median line height (word boxes carry no font size). Names end in their unit as
 * above; `Letters` counts characters of a word.
 */
export const OCR_EQUATION_SETTINGS = Object.freeze({
  /**
   * The least gap between a label and its display: more than a justified line stretches a word space
   * to, less than a display that fills its line leaves.
   */
  minGapEm: 1,
  /** The least gap beside a display that fills its line: amsmath sets a tag half a quad (\mintagsep) from it; OCR boxes take a little of that. */
  minFilledGapEm: 0.4,
  /** Rows beside the label overlap its box by this at the least (OCR boxes of one line differ by a little). */
  besideSlackEm: 0.15,
  /** Words this short beside a label alone on its line are a stray sub- or superscript, not its display. */
  strayScriptLetters: 3,
  /** The row a label alone on its line closes may overlap it by this (descenders, OCR boxes). */
  nextRowOverlapEm: 0.2,
  /** The rows just above and below the label's: a line's height away. */
  nextRowEm: 1.2,
  /** Content starting within this of its column's left edge starts at the margin (a display is indented more). */
  marginStartEm: 2,
  /** Words starting within this right of the label are text after it on its line (a gutter is wider). */
  afterLabelEm: 2,
  /** A word of prose this long or longer is a long one (`the`, `of` are not). */
  longWordLetters: 4,
  /** A display filling its line ends within this of its label. */
  filledReachEm: 2,
  /** A display's centre lies within this of its column's centre (OCR boxes, a label's width beside it). */
  centredEm: 2,
  /** Content starting this far right of its column's left edge is indented as a display is. */
  indentEm: 2,
  /** Rows near the label count for its display's mathematics from this far left of the content. */
  nearRowsReachEm: 2,
  /**
   * Beside a label, four words of prose or more, most of the row's words (this share), is a sentence
   * (a numbered example, a list item): OCR makes words of a display's letters too, but few and short.
   */
  proseWordsLeast: 4,
  proseWordsShare: 0.5,
  /**
   * ...or two long words of prose and this share of the characters in words of prose, however OCR
   * reads a sentence's punctuation (a stray `|`).
   */
  sentenceLongWords: 2,
  proseCharacterShare: 0.75,
  /** Words of a fraction's numerator or denominator stand closer than this (a word space or two). */
  fractionGroupGapEm: 0.6,
  /** A script row's gap to the text-size row it belongs to, at most. */
  scriptTouchEm: 0.3,
  /** A row at most 0.6 of another's height stands this close to it when it holds that row's limits. */
  scriptNearEm: 0.4,
  /** Rows overlapping by this much are one line that OCR cut in pieces: table rows stand a line apart. */
  interleavedEm: 0.4,
  /** How far past a label's words read a bracket the reading dropped may stand (a bracket and a space). */
  droppedBracketEm: 0.5,
  /** Where a label strip reaches past its column's edge (a label protruding into the margin)... */
  stripOutsideEm: 2.5,
  /** ...and into the column (the widest label). */
  stripInsideEm: 5,
  /** How far above and below the words read a strip runs (rows of a display the reading dropped). */
  stripBeyondEm: 12,
  /**
   * Most space between the rows of a display opening a page, and between it and the running text
   * below (\belowdisplayskip), in line heights: measured 0.3-1.3 on generated scans. A running head
   * stands farther from the body (\headsep, 1.6 or more).
   */
  displayChainGapEm: 1.5,
  /** A row of running text: this many words at the least... */
  runningRowWords: 5,
  /** ...across this width at the least (a display's row of signs is shorter, or has fewer words). */
  runningRowWidthEm: 15,
  /** Columns whose edges lie within this of each other are one (OCR boxes of justified rows differ by a little). */
  sameColumnEm: 2,
  /** A label spot may reach this far past its column's right edge (a label protruding into the margin). */
  spotOutsideEm: 2.5,
  /** ...and must end within this of it, ... */
  spotEdgeEm: 1.5,
  /** ...starting at least this far into the column (a label is never a row's whole width). */
  spotInsetEm: 4,
  /** The words of a spot stand closer than this to each other (a label read in pieces; a display's gap is wider). */
  spotWordGapEm: 0.8,
  /** A spot is at most this wide... */
  spotWidthEm: 5,
  /** ...and of at most this many characters (the longest label, `(A.12b)`, with a bracket read apart). */
  spotLetters: 10,
  /** Spots whose boxes come this close are one label read as two, ... */
  spotTouchEm: 0.5,
  /** ...when both fit in this height (a label read across a fraction's two rows). */
  spotMergeHeightEm: 1.6,
  /** A running head stands at least this far above the running text's top (a display opening the body stands closer). */
  headAboveEm: 3.5,
  /** A sign this tall at the least (an integral, a radical, a big bracket)... */
  tallSignEm: 1.5,
  /** ...and this many times as tall as the words around it is a tall sign of mathematics. */
  tallSignShare: 1.6,
  /** Rows of an aligned display stand within this above or below the label's row. */
  alignedReachEm: 2.5,
  /** Their relation signs stand one over the other within this (OCR boxes of one sign differ by a little). */
  alignedSignEm: 1 / 3,
  /** A fraction's parts overlap by at most this, ... */
  fractionOverlapEm: 0.3,
  /** ...stand at most this far apart, ... */
  fractionGapEm: 0.8,
  /** ...are at most this wide (a group of words, not a line of prose), ... */
  fractionWidthEm: 8,
  /** ...one at most this share of the other's width (a numerator over a longer denominator, or the reverse), ... */
  fractionNarrowerShare: 0.75,
  /** ...centred one over the other within this share of the wider (or a point). */
  fractionCentredShare: 0.15,
  /** Rows of a table around the content: within this above and below it, ... */
  tableReachEm: 2,
  /** ...split into cells by gaps this wide at the least (a word space is far less; a display's spacing is less too). */
  tableCellGapEm: 2,
  /** Words of script size stand below this height (scriptstyle is 0.7 of the text size). */
  scriptHeightEm: 0.65,
  /** How far past the label its crops reach, from tight to wide (a bracket, its ink, a little space). */
  cropPadsEm: Object.freeze([0.3, 0.6, 0.9]),
});

/**
 * The tolerances the caption rules judge a page by (figure-captions.ts), the em being the label's
 * font size. Names end in their unit as above.
 */
export const CAPTION_SETTINGS = Object.freeze({
  /** Characters within this of a baseline stand on it (a label's, its row's, the first letter after it). */
  baselineEm: 0.3,
  /** Gaps of a row's characters narrower than this are between letters, not words (kerning, tracking). */
  letterGapEm: 0.15,
  /** A running-text line just above may reach this far into the row's top (descenders, rounding)... */
  lineAboveOverlapEm: 0.2,
  /** ...and stand at most this far above it: at the body's leading a line's gap to the next is less. */
  lineAboveGapEm: 0.75,
  /** ...with its left edge within this of the row's (a paragraph's indent is one or two em). */
  lineAboveIndentEm: 2.5,
  /** A label this share larger or smaller than the words after it is set apart (a size step is more). */
  labelSizeShare: 0.1,
  /** A centred row's indents on its two sides differ by at most this (an em each at the least). */
  centredEvenEm: 0.5,
  /** Least gap before a caption's label set beside another caption's row (a word space is less). */
  besideCaptionGapEm: 0.3,
  /** A gap before the label wider than this share of the widest word space of the row parts two captions. */
  besideCaptionSpaceShare: 1.3,
  /** Text before the label ending at least this before it may be a column beside it (a word space is less). */
  columnGapEm: 0.8,
  /** The next row stands one leading away: between these distances of baselines. */
  leadingMinEm: 0.8,
  leadingMaxEm: 1.6,
  /** Rows whose ends are compared with the text before a label: within this above and below (a few lines). */
  rowsReachEm: 3,
  /** Rows are told apart by their baselines in steps of this (a row's characters share a step). */
  rowStepEm: 0.3,
  /** A row of a caption is flush with its first within this (glyph sidebearings). */
  flushEm: 0.3,
  /** A paragraph's first line is indented between these (0.5 em to 4 em: a quad to a hanging indent's). */
  paragraphIndentMinEm: 0.5,
  paragraphIndentMaxEm: 4,
  /** A row ending this far short of the block's width ends its paragraph. */
  shortRowEm: 2,
  /** A paragraph's row above stands between these baseline distances (at the body's leading, not a heading's space). */
  rowAboveMinEm: 0.95,
  rowAboveMaxEm: 1.4,
  /** ...in the row's own size, to this share (a heading or a note is set in another). */
  rowAboveSizeShare: 0.05,
  /** ...flush with the row to within this, or up to a paragraph's indent to its left. */
  rowAboveFlushEm: 0.5,
  /** A row below is a caption's next row when set in its size to this share (a legend or note differs more). */
  rowBelowSizeShare: 0.25,
  /** Least space between the number and the caption's first letter for a wide one (an em quad, a dash drawn as a path). */
  wideSpaceEm: 0.6,
  /** ...and wider than this many times the row's median word space. */
  wideSpaceShare: 2,
});
