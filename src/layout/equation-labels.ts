/**
 * Equation labels decided by layout. A candidate is a parenthesised token in a known label form;
 * it is accepted only when it stands at its column's edge beside a displayed equation: content set
 * apart from running text (centred or indented, clear of the label) that is mathematics. Every
 * rule that refuses a candidate is recorded, so a person can see why a label did not count.
 */
import type { Box, PageText } from "../document/model.js";
import { type CharRange, roundBox, spanOf, unionBox } from "./char-spans.js";
import { displayBlock, nearestRow, proseMask, withRowsBeside } from "./display-block.js";
import { decideEquation } from "./equation-decision.js";
import type { EquationFeatures } from "./equation-features.js";
import {
  ALIGNED_NUMBERED,
  alignedRow,
  continuedBelow,
  formulaRow,
  fractionBars,
  graphicsBeside,
  isTabular,
  labelName,
  listItem,
  mathAround,
  mathShare,
  NOT_ALIGNED,
  opensWithRelation,
  outsideTextBlock,
  proseWords,
  widerFrame,
} from "./equation-rules.js";
import { isEquationLabel } from "./labels.js";
import { type LayoutBudget, UNBOUNDED } from "./layout-budget.js";
import { BandIndex, type PageChars, parenthesisGlyph } from "./page-chars.js";
import type { RejectionReason } from "./rejection-reasons.js";
import { EQUATION_SETTINGS as S } from "./settings.js";
import type { BodyLine, DocumentFrames, Frame } from "./text-frames.js";

export interface EquationCandidate {
  /** The label as printed, without its parentheses. */
  label: string;
  /** The token as it stands in the text, e.g. "(3)." */
  printed: string;
  page: number;
  labelBox: Box;
  /** Which edge of its column the label stands at, when it stands at one. */
  side?: "right" | "left";
  /** The displayed content beside the label, when any. */
  equationBox?: Box;
  /** The column frame the label was measured in, when it stands in one. */
  frame?: Box;
  /** Empty for an accepted label. */
  reasons: RejectionReason[];
  /** What the page shows about the candidate, which the decision read. */
  features: EquationFeatures;
  /** The decision's predicates that held (see equation-decision.ts); empty for an accepted label. */
  decidedBy: string[];
}

/**
 * "(label)" as the text layer gives it; or "ðlabelÞ", the code points some math fonts put their
 * parenthesis glyphs at (such a token counts only when its glyphs are shaped as parentheses).
 */
const TOKEN = /(?<![^\s])(?:\(([^()\s]{1,16})\)|\u00f0([^()\s\u00f0\u00de]{1,16})\u00de)(\S*)/g;

/** A parenthesised token in the page's text in a known label form: a possible equation label. */
export interface EquationToken {
  /** UTF-16 offset of its "(" in PageText.text. */
  startUtf16: number;
  /** The label, without its parentheses. */
  inner: string;
  /** The token as it stands in the text, e.g. "(3)." */
  printed: string;
  /** What follows ")" before the next space. */
  trailing: string;
  /** Whether its parentheses are other code points, to be read from their glyphs' shapes. */
  glyphParentheses: boolean;
}

/** The tokens in the page's text that could be equation labels (no geometry needed). */
export function equationTokens(text: PageText): EquationToken[] {
  const out: EquationToken[] = [];
  for (const m of text.text.matchAll(TOKEN)) {
    const inner = m[1] ?? m[2];
    if (isEquationLabel(inner))
      out.push({
        startUtf16: m.index,
        inner,
        printed: m[0],
        trailing: m[3],
        glyphParentheses: m[1] === undefined,
      });
  }
  return out;
}

/**
 * The text width a page shows (see textWidthFrame): the text block's left edge, the right edge its
 * labels stand at, and the heights its text and those labels cover.
 */
export interface TextWidth {
  left: number;
  right: number;
  bottom: number;
  top: number;
}

/** A page's equation-label candidates, judged. */
export interface PageEquations {
  candidates: EquationCandidate[];
  /** The text widths the page's labels show, for the document's other pages. */
  widths: TextWidth[];
  /**
   * The right edges (with the tolerance each is matched with) of the tokens whose frame a width
   * shown elsewhere could give: past the text block's right edge by more than the edge tolerance
   * (a parenthesis protruded into the margin stands at the edge), or on a page without a block, and
   * at no width this page shows.
   */
  labelEdges: { right: number; tolerance: number }[];
}

/**
 * Whether a text width shown elsewhere has its right edge where one of the page's tokens stands,
 * so that judging the page against it could change what was decided without it.
 */
export function reachedBy(page: PageEquations, widths: readonly TextWidth[]): boolean {
  return page.labelEdges.some((l) => widths.some((w) => Math.abs(w.right - l.right) <= l.tolerance));
}

export function equationCandidates(
  text: PageText,
  chars: PageChars,
  frames: DocumentFrames,
  index: BandIndex = new BandIndex(chars),
  tokens: EquationToken[] = equationTokens(text),
  budget: LayoutBudget = UNBOUNDED,
  /** Text widths shown by the document's other pages (a slide whose labels show none itself). */
  shown: readonly TextWidth[] = [],
): PageEquations {
  const found: FoundToken[] = [];
  for (const { startUtf16: start, inner, printed, trailing, glyphParentheses } of tokens) {
    const end = start + inner.length + 2;
    const members: number[] = [];
    for (let i = start; i < end; i++) {
      const k = chars.indexOfOffset[i];
      if (k < 0) break;
      if (members[members.length - 1] !== k) members.push(k);
    }
    if (members.length !== [...text.text.slice(start, end)].length) continue;
    const token = tokenGeometry(chars, members);
    if (!token) continue;
    if (glyphParentheses && !parenthesisShaped(chars, members[0], members[members.length - 1])) continue;
    found.push({ inner, printed, trailing, token, start });
  }
  let mask: Uint8Array | undefined;
  const prose = () => {
    mask ??= proseMask(text, chars);
    return mask;
  };
  // Right edges that a centred display shows to be the text width's (see textWidthFrame).
  const widthEdges: number[] = [];
  const widths: TextWidth[] = [];
  for (const f of found) {
    const { box } = f.token;
    const edge = textWidthFrame(box, text, chars, index, frames, f.token.members, f.token.em, [], []);
    if (!edge) continue;
    widthEdges.push(edge.right);
    widths.push({
      left: edge.left,
      right: edge.right,
      bottom: Math.min(edge.bottom, box.bottom),
      top: Math.max(edge.top, box.top),
    });
  }
  const labelEdges: { right: number; tolerance: number }[] = [];
  for (const { token } of found) {
    const tolerance = edgeTolerance(token.em);
    if (widthEdges.some((edge) => Math.abs(edge - token.box.right) <= tolerance)) continue;
    const block = textBlockOf(text, frames);
    if (block && token.box.right <= block.right + tolerance) continue;
    labelEdges.push({ right: token.box.right, tolerance });
  }
  const candidates = found.map((f) => {
    budget.check();
    const judged = judge(text.page, f, measure(text, chars, index, frames, f, widthEdges, shown));
    const { candidate, content } = judged;
    if (candidate.reasons.length > 0 || !content) return candidate;
    // An accepted label's display is grown to its full extent (crops show it). It stops halfway to
    // the next label standing in the same place above or below.
    const { box, em } = f.token;
    let lo = -Infinity;
    let hi = Infinity;
    for (const o of found) {
      if (o === f || Math.abs(o.token.box.right - box.right) > em * S.sameEdgeEm) continue;
      if (o.token.box.bottom >= box.top) hi = Math.min(hi, (o.token.box.bottom + box.top) / 2);
      else if (o.token.box.top <= box.bottom) lo = Math.max(lo, (o.token.box.top + box.bottom) / 2);
    }
    const block = displayBlock(
      { lo, hi, prose },
      chars,
      index,
      judged.between
        ? withRowsBeside(content, chars, index, f.token, { lo, hi, prose }, judged.xMin, judged.xMax)
        : content,
      em,
      judged.xMin,
      judged.xMax,
      frames.bodyLines[text.page - 1] ?? [],
      f.token.members,
    );
    candidate.equationBox = roundBox(block);
    return candidate;
  });
  // Labels accepted past the text block's right edge as read (ragged lines end short of the text
  // width's) show where the width's edge is, as a centred display does.
  const block = textBlockOf(text, frames);
  for (const c of candidates)
    if (block && c.reasons.length === 0 && c.side === "right" && c.labelBox.right > block.right)
      widths.push({
        left: block.left,
        right: c.labelBox.right,
        bottom: Math.min(block.bottom, c.labelBox.bottom),
        top: Math.max(block.top, c.labelBox.top),
      });
  return { candidates, widths, labelEdges };
}

const frameBox = (f: Frame): Box => ({ left: f.left, bottom: f.bottom, right: f.right, top: f.top });

/** How far, in points, a token may stand from an edge and still stand at it. */
const edgeTolerance = (em: number) => Math.max(S.edgeToleranceMinPt, em * S.edgeToleranceEm);

/** Whether the two glyphs of a token are shaped as a pair of parentheses (see parenthesisGlyph). */
function parenthesisShaped(chars: PageChars, open: number, close: number): boolean {
  return (
    parenthesisGlyph(chars.x0[open], chars.y0[open], chars.x1[open], chars.y1[open], chars.base[open]) &&
    parenthesisGlyph(chars.x0[close], chars.y0[close], chars.x1[close], chars.y1[close], chars.base[close])
  );
}

/** A token of the page with its geometry, to be judged. */
interface FoundToken {
  inner: string;
  printed: string;
  trailing: string;
  token: TokenGeometry;
  start: number;
}

interface TokenGeometry {
  box: Box;
  em: number;
  /** Its characters, consecutive in PageChars. */
  members: CharRange;
}

/** The token's box, provided its characters stand on one baseline from left to right. */
function tokenGeometry(chars: PageChars, members: number[]): TokenGeometry | undefined {
  let left = Infinity;
  let bottom = Infinity;
  let right = -Infinity;
  let top = -Infinity;
  const base = chars.base[members[0]];
  // The label's first character inside its parentheses gives the size (a symbol font's parenthesis
  // glyphs can report another).
  const sized = members[Math.min(1, members.length - 1)];
  const em = chars.size[sized] > 0 ? chars.size[sized] : S.unsizedEmPt;
  let lastX = -Infinity;
  for (let j = 0; j < members.length; j++) {
    const k = members[j];
    if (Math.abs(chars.base[k] - base) > em * S.tokenBaselineEm) return undefined;
    if (chars.x0[k] < lastX - em * S.tokenBacktrackEm) return undefined;
    lastX = chars.x0[k];
    left = Math.min(left, chars.x0[k]);
    bottom = Math.min(bottom, chars.y0[k]);
    right = Math.max(right, chars.x1[k]);
    top = Math.max(top, chars.y1[k]);
  }
  // Read in text order from one line, a token's characters are consecutive.
  const first = members[0];
  const last = members[members.length - 1];
  if (last - first !== members.length - 1) return undefined;
  return { box: { left, bottom, right, top }, em, members: { first, last } };
}

/** A judged candidate, before an accepted one's display is grown to its full extent. */
interface Judged {
  candidate: EquationCandidate;
  /** The content beside the label and its fraction bars, when any. */
  content: Box | undefined;
  /** Left and right edges of what the display may grow over. */
  xMin: number;
  xMax: number;
  /** Whether the label stands between two rows (see betweenRows). */
  between: boolean;
}

/** A candidate's features, and the geometry its display is grown from when it is accepted. */
interface Measured {
  features: EquationFeatures;
  side: "right" | "left" | undefined;
  content: Box | undefined;
  frame: Box | undefined;
  xMin: number;
  xMax: number;
  between: boolean;
}

function judge(page: number, seen: FoundToken, measured: Measured): Judged {
  const { features, content, side } = measured;
  const decision = decideEquation(features);
  // One shape for every candidate (the optional fields set, undefined where absent): objects of
  // several shapes make V8 throw away the optimized code that reads them and build it again.
  const candidate: EquationCandidate = {
    label: seen.inner,
    printed: seen.printed,
    page,
    labelBox: roundBox(seen.token.box),
    side,
    equationBox: content ? roundBox(content) : undefined,
    frame: measured.frame ? roundBox(measured.frame) : undefined,
    reasons: decision.reasons,
    features,
    decidedBy: decision.decidedBy,
  };
  return { candidate, content, xMin: measured.xMin, xMax: measured.xMax, between: measured.between };
}

/** The candidate's features, measured from the page once (see EquationFeatures). */
function measure(
  text: PageText,
  chars: PageChars,
  index: BandIndex,
  frames: DocumentFrames,
  seen: FoundToken,
  widthEdges: readonly number[],
  shown: readonly TextWidth[],
): Measured {
  const { trailing, token, start } = seen;
  const { box, em } = token;
  const column = chooseFrame(box, frames.pageFrames[text.page - 1] ?? [], frames.docFrames, em);
  const mirrored = textWidthFrame(box, text, chars, index, frames, token.members, em, widthEdges, shown);
  const tolerance = edgeTolerance(em);
  const atColumnEdge = column !== undefined && frameScore(box, column) <= tolerance;
  const chosen = atColumnEdge ? column : (mirrored ?? column);
  // A label inside its frame with a column of text past a gutter to its right stands at the right
  // edge of a column of its own (a slide's columns, the display alone in one): the frame ends there.
  const gutter =
    chosen !== undefined && frameScore(box, chosen) > tolerance && box.right < chosen.right - tolerance
      ? columnBeside(text, box, em, chosen)
      : undefined;
  const frame = chosen && gutter !== undefined ? { ...chosen, right: box.right } : chosen;
  const inPageMargin = outsideTextBlock(box, frames, text.page, em, chars, index, token.members, mirrored);

  const xlo = frame ? frame.left - em * S.frameReachEm : 0;
  const xhi = frame
    ? Math.min(frame.right + em * S.frameReachEm, gutter ?? Infinity)
    : text.width + text.cropBox.left;
  const h = box.top - box.bottom;
  const coreLo = box.bottom + h * S.labelCoreShare;
  const coreHi = box.top - h * S.labelCoreShare;
  const row: number[] = [];
  const after: number[] = [];
  const found = index.scan(coreLo, coreHi);
  const hits = index.hits;
  for (let j = 0; j < found; j++) {
    const k = hits[j];
    if (k >= token.members.first && k <= token.members.last) continue;
    if (chars.x1[k] <= box.left + S.touchPt && chars.x0[k] >= xlo) row.push(k);
    else if (chars.x0[k] >= box.right - S.touchPt && chars.x1[k] <= xhi) after.push(k);
  }
  // Between two rows (a split display's number, centred on the display), what meets the label's
  // height is the rows' descenders and ascenders, whose lines lie above and below the label's: the
  // label stands on a line of its own.
  const between = betweenRows(chars, row, after, chars.base[token.members.first], em);
  if (between) {
    row.length = 0;
    after.length = 0;
  }

  // A word naming the label ("Equation (3)") is part of it; what stands before that word is the content.
  const name = labelName(text, chars, start, box, em);
  const before = name ? row.filter((k) => chars.x1[k] <= name.left + S.touchPt) : row;
  const labelLeft = name ? name.left : box.left;
  const superscript = !name && isSuperscriptOf(chars, before, token.members.first, labelLeft);

  const atRight = frame !== undefined && Math.abs(box.right - frame.right) <= tolerance;
  const atLeft = frame !== undefined && Math.abs(box.left - frame.left) <= tolerance;
  const beforeSpan = spanOf(chars, before);
  // A label set after a tab: alone at the end of its row in the column's right half, far from the
  // content before it, though not at the column's edge (word processors' right tabs, stops inside
  // the margin).
  const tabbed =
    frame !== undefined &&
    !atRight &&
    !atLeft &&
    after.length === 0 &&
    trailing.length === 0 &&
    beforeSpan !== undefined &&
    box.left > (frame.left + frame.right) / 2 &&
    labelLeft - beforeSpan.x1 >= em * S.tabGapEm;
  const afterSpan = spanOf(chars, after);
  const clearAfter =
    afterSpan === undefined ||
    afterSpan.x0 - box.right >= em * S.leftGapEm ||
    (afterSpan.x0 - box.right >= em * S.leftGapMathEm && mathShare(chars, after).share >= S.leftMathShare);
  let side: "right" | "left" | undefined;
  if ((atRight || tabbed) && after.length === 0) side = "right";
  else if (atLeft && before.length === 0 && clearAfter) side = "left";
  else if (atRight) side = "right";
  else if (atLeft) side = "left";
  const leftSide = side === "left";
  const leftLabelClear = leftSide && before.length === 0 && afterSpan !== undefined && clearAfter;

  // The rest of the line: the content the label stands beside; for a label on its own line, the
  // row above it, which the label closes (looked up every time, see above).
  const contentAfter = leftSide && before.length === 0;
  const rowEnd = leftSide ? xhi : labelLeft;
  const above = nearestRow(chars, index, box, em, xlo, rowEnd, 1, token.members);
  const besideLabel = contentAfter ? after : before;
  const ownLine = besideLabel.length === 0;
  // A left-side label alone on its line opens the display below it (a display too long for its
  // line, whose number is set on a line of its own above it), when that row is mathematics.
  const below = ownLine && leftSide ? nearestRow(chars, index, box, em, xlo, xhi, -1, token.members) : [];
  const opensBelow = below.length > 0 && mathShare(chars, below).count > 0;
  const aboveFound = above.length > 0 || opensBelow;
  const closesBlock = ownLine && aboveFound;
  const content = ownLine ? (opensBelow ? below : above) : besideLabel;
  const span = spanOf(chars, content);
  const bars = span ? fractionBars(text.graphics, box, span, em, frame) : [];
  const math = mathShare(chars, content);
  const nearbyMath = mathAround(chars, index, box, em, span, token.members);
  const contentIsAfter = contentAfter && content === besideLabel;
  let prose: boolean | undefined;
  const isProse = () => {
    prose ??= proseWords(text, chars, content, math.share);
    return prose;
  };

  const features: EquationFeatures = {
    emPt: em,
    inColumn: frame !== undefined,
    columnBeside: gutter !== undefined,
    inPageMargin,
    superscript,
    named: name !== undefined,
    betweenRows: between,
    atRightEdge: atRight,
    atLeftEdge: atLeft,
    afterTab: tabbed,
    side,
    textJoined: trailing.length > 0,
    textAfter: after.length > 0,
    leftLabelClear,
    hasContent: span !== undefined,
    closesBlock,
    contentAfter: contentIsAfter,
    mathChars: math.count,
    mathShare: math.share,
    fractionBars: bars.length,
    mathNearby: nearbyMath,
    // Every field written out (no spread): one hidden class for every candidate, which the
    // decision's predicates then read at the speed of a fixed layout.
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
    graphicsBeside: graphicsBeside(text.graphics, box, em),
    crowded: undefined,
    proseRow: undefined,
    fillsColumn: undefined,
  };
  // Words with a stray symbol after a left-side number (a numbered example sentence "Smith weighs
  // 150 lbs. (φ)"): where there is no math at all, no-math says it already.
  if (span && leftSide && math.count > 0 && bars.length === 0) isProse();
  if (span && frame) {
    const gap = contentIsAfter ? span.x0 - box.right : labelLeft - span.x1;
    const startsAtMargin = span.x0 <= frame.left + em * S.marginStartEm;
    const noBars = bars.length === 0;
    // A justified line of words can stretch the space before the label to a full em and more.
    const nearLabel = gap < em * S.nearLabelEm || (gap < em * S.proseGapEm && noBars && isProse());
    // A row of an aligned display (see displayRow) may fill its line up to the label; one whose
    // alignment is that of a numbered row beside it is no line of running text.
    const aligned =
      !contentIsAfter && math.share >= S.alignedShare
        ? alignedRow(text, chars, index, content, box, em, xlo, labelLeft)
        : NOT_ALIGNED;
    // A formula filling its line (no words, a relation sign) is no line of running text either;
    // neither is a list item (a bullet or number before it).
    const formula = formulaRow(text, chars, index, content, span, bars, em);
    const item = listItem(text, chars, content, span, em);
    let continues: boolean | undefined;
    const isContinued = () => {
      continues ??= continuedBelow(text, chars, index, span, box, em, labelLeft);
      return continues;
    };
    // A row closed by a label on its own line, continued by a row that opens with a relation
    // sign set under its own (a split display's first row, filling its line), is no running text.
    const continued = closesBlock && aligned !== NOT_ALIGNED && isContinued();
    // Centred or indented in the label's frame, or in a wider one that holds the content (a frame
    // made of a page's few lines can be the display's own rows).
    const wider = widerFrame(frames, text.page, span, box, frame, em);
    // The display's extent: its characters on the label's line and the fraction bars over and past them.
    let x1 = span.x1;
    for (const b of bars) x1 = Math.max(x1, b.right);
    const setApart = (column: Frame) => {
      const centre = (span.x0 + x1) / 2;
      const tolerance = Math.max(em * S.centredEm, (column.right - column.left) * S.centredShare);
      const centredInFrame = Math.abs(centre - (column.left + column.right) / 2) <= tolerance;
      const centredLeftOfLabel = Math.abs(centre - (column.left + labelLeft) / 2) <= tolerance;
      const centredRightOfLabel = Math.abs(centre - (box.right + column.right) / 2) <= tolerance;
      const centred =
        centredInFrame || (side === "right" && centredLeftOfLabel) || (leftSide && centredRightOfLabel);
      // A left-side label's display starts clear of the label (multline's first line sits close to it).
      const indented = contentIsAfter
        ? span.x0 - box.right >= em * S.leftGapEm
        : span.x0 - column.left >= em * S.indentEm;
      return centred || indented;
    };
    // A row of an aligned display, which opens with a relation ("= ...", "≤ ...") or is followed by
    // rows that do, or whose relation sign stands where one of a row above or below stands, is a
    // display however far left the alignment puts it: running text never opens a line that way.
    // Where the alignment itself says so, less of the row need be math (a sans-serif slide's letters).
    const displayRow =
      !contentIsAfter &&
      ((math.share >= S.displayRowShare && (opensWithRelation(text, chars, content) || isContinued())) ||
        aligned !== NOT_ALIGNED);
    const apart = setApart(frame);
    features.gapPt = gap;
    features.marginProse = startsAtMargin && math.share < S.proseShare;
    features.setAgainstLabel = nearLabel;
    features.alignedRow = aligned;
    features.formulaRow = formula;
    features.listItem = item;
    features.fillsAsDisplay = !item && (aligned === ALIGNED_NUMBERED || formula);
    features.continuedBelow = continues;
    features.continuedRow = continued;
    features.setApart = apart;
    features.setApartInWider = apart ? undefined : wider !== undefined && setApart(wider);
    features.displayRow = displayRow;
  }
  features.proseWords = prose;
  if (span)
    features.tabular = isTabular(
      text,
      chars,
      index,
      box,
      em,
      frame,
      content,
      math.share,
      frames.bodyLines[text.page - 1] ?? [],
    );

  const contentBox = span ? unionBox(span, bars) : undefined;
  const rightOfLabel = leftSide && (content === after || content === below);
  return {
    features,
    side,
    content: contentBox,
    frame: frame ? frameBox(frame) : undefined,
    xMin: xlo,
    xMax: rightOfLabel ? xhi : labelLeft,
    between,
  };
}

/**
 * The left edge of a column of text standing right of the label past a gutter, when one does: two
 * lines of words or more starting at one left edge at least an em past the label and inside the
 * label's frame (the next column of a page is no column of the label's frame), near it in height,
 * and no line crossing the gutter on both sides of the label's row. (A display's pieces past a gap, a
 * fraction or a brace's cases, are no lines of words.)
 */
function columnBeside(text: PageText, box: Box, em: number, frame: Frame): number | undefined {
  const lo = box.bottom - em * S.besideColumnReachEm;
  const hi = box.top + em * S.besideColumnReachEm;
  const lefts: number[] = [];
  for (const l of text.lines)
    if (
      l.box.top > lo &&
      l.box.bottom < hi &&
      l.box.left >= box.right + em * S.gutterEm &&
      l.box.left < frame.right &&
      wordsLine(text.text.slice(l.startUtf16, l.endUtf16))
    )
      lefts.push(l.box.left);
  if (lefts.length < 2) return undefined;
  const left = Math.min(...lefts);
  if (lefts.filter((x) => x - left <= S.edgeToleranceMinPt).length < 2) return undefined;
  // Running text crosses the gutter on the rows above and below a token within it; a column's
  // display may have running text under it (the columns' end), not on both sides.
  const rowLo = box.bottom - em * S.gutterRowEm;
  const rowHi = box.top + em * S.gutterRowEm;
  let above = false;
  let below = false;
  for (const l of text.lines)
    if (
      l.box.top > rowLo &&
      l.box.bottom < rowHi &&
      l.box.left < left - S.edgeToleranceMinPt &&
      l.box.right > box.right + S.edgeToleranceMinPt
    ) {
      if (l.box.top >= box.top) above = true;
      if (l.box.bottom <= box.bottom) below = true;
    }
  return above && below ? undefined : left;
}

/** A line of words: letters, most of what it prints, several of them. */
function wordsLine(line: string): boolean {
  let letters = 0;
  let visible = 0;
  for (const c of line) {
    if (c === " ") continue;
    visible++;
    if (WORD_LETTER.test(c)) letters++;
  }
  return letters >= S.wordsLineLetters && letters >= visible * S.wordsLineShare;
}

const WORD_LETTER = /\p{L}/u;

/**
 * Whether the token is a superscript of the character just before it (`w^{(2)}` ending a line):
 * smaller than that character, its baseline raised by a fifth of that character's size or more, and
 * set against it. A label stands apart from its display (half a quad at the least) on the display's
 * baseline, in the text's size.
 */
function isSuperscriptOf(
  chars: PageChars,
  before: readonly number[],
  first: number,
  labelLeft: number,
): boolean {
  let last = -1;
  for (const k of before) if (last < 0 || chars.x1[k] > chars.x1[last]) last = k;
  if (last < 0) return false;
  const size = chars.size[last];
  return (
    chars.size[first] <= S.superscriptSizeShare * size &&
    chars.base[first] - chars.base[last] >= S.superscriptRiseShare * size &&
    labelLeft - chars.x1[last] < S.superscriptGapShare * size
  );
}

/**
 * Whether every character beside the label stands on a line above or below the label's: at least
 * half an em from its baseline with some above and some below, or all of them above by more than
 * 0.6 em (the row above's descenders). Not all below: a raised token (a superscript) stands so.
 * Where only characters smaller than the label meet its height (the scripts of the rows above and
 * below, whose own baselines lie off their rows'), it stands on a line of its own too.
 */
function betweenRows(chars: PageChars, row: number[], after: number[], base: number, em: number): boolean {
  let above = 0;
  let below = 0;
  let nearest = Infinity;
  let scriptsOnly = true;
  for (const list of [row, after])
    for (const k of list) {
      scriptsOnly &&= chars.size[k] < em * S.scriptSizeEm;
      const d = chars.base[k] - base;
      nearest = Math.min(nearest, Math.abs(d));
      if (d > 0) above++;
      else below++;
    }
  if (above + below === 0) return false;
  if (scriptsOnly) return true;
  if (nearest < em * S.otherLineEm) return false;
  return (above > 0 && below > 0) || (below === 0 && nearest > em * S.rowAboveEm);
}

/**
 * The frame a token belongs to: it must stand within the frame's width. A frame of this page whose
 * edge the token stands at wins over the document's common frames (a page in one column of a
 * document with two-column stretches), and among equals the frame with more lines.
 */
function chooseFrame(box: Box, pageFrames: Frame[], docFrames: Frame[], em: number): Frame | undefined {
  const tolerance = Math.max(S.edgeToleranceMinPt, em * S.edgeToleranceEm);
  const local = bestFrame(box, pageFrames, em, tolerance, true);
  if (local && frameScore(box, local) <= tolerance) return local;
  const common = bestFrame(box, docFrames, em, tolerance, false);
  if (common && frameScore(box, common) <= tolerance) return common;
  return local ?? common;
}

/**
 * A frame for a label past the lines of running text (slides whose bullets are all short): the
 * text width's right edge, which no line reaches, found one of two ways. Where the block's left
 * edge mirrors it (margins alike on both sides), the label stands at that mirrored edge, or up to
 * an em past it (the left edge read from indented items lies that much inside the margin). Where
 * the margins differ (a theme's sidebar, a wider left margin), the display beside or above the
 * label is centred between the block's left edge and the label's right edge: a display is centred
 * in the text width and its label set flush with the width's right edge, so that edge is the
 * label's; and the page's other labels at an edge so shown stand at the width's edge too (the rows
 * of an aligned display are not centred one by one), as do the labels of the document's other pages
 * (`shown`: a slide whose one display is not centred on its label's row, or whose displays leave no
 * line of running text to read the block from). Either way the frame runs from the block's left
 * edge to the label's right edge.
 */
function textWidthFrame(
  box: Box,
  text: PageText,
  chars: PageChars,
  index: BandIndex,
  frames: DocumentFrames,
  label: CharRange,
  em: number,
  /** Right edges this page's centred displays show to be the text width's. */
  widthEdges: readonly number[],
  /** Text widths the document's other pages show. */
  shown: readonly TextWidth[],
): Frame | undefined {
  const tolerance = edgeTolerance(em);
  const elsewhere = shown.filter((w) => Math.abs(w.right - box.right) <= tolerance);
  // On a page with no text block (a slide of displays alone), the text width other pages show.
  const block = textBlockOf(text, frames);
  if (!block) return elsewhere.length > 0 ? shownFrame(elsewhere, box) : undefined;
  const frame = { left: block.left, right: box.right, bottom: block.bottom, top: block.top, lines: 0 };
  const pageLeft = text.cropBox.left;
  const mirror = pageLeft + text.width - (block.left - pageLeft);
  if (
    mirror > block.right + em * S.frameReachEm &&
    box.right >= mirror - tolerance &&
    box.right <= mirror + em * S.mirrorSlackEm
  )
    return frame;
  if (elsewhere.length > 0 && box.right > block.right)
    return { ...shownFrame([...elsewhere, frame], box), left: block.left };
  if (!pastTextBlock(box, text, frames, em)) return undefined;
  if (widthEdges.some((edge) => Math.abs(edge - box.right) <= tolerance)) return frame;
  const bodyLines = frames.bodyLines[text.page - 1] ?? [];
  return centredBeside(box, chars, index, label, block.left - em * S.frameReachEm, em, frame, bodyLines)
    ? frame
    : undefined;
}

/** The document's text block, or on a document too short to show one, this page's frames. */
function textBlockOf(text: PageText, frames: DocumentFrames): Box | undefined {
  return frames.textBlock ?? framesUnion(frames.pageFrames[text.page - 1] ?? []);
}

/** Whether the token stands past the text block's right edge (by more than an em). */
function pastTextBlock(box: Box, text: PageText, frames: DocumentFrames, em: number): boolean {
  const block = textBlockOf(text, frames);
  return block !== undefined && box.right > block.right + em * S.frameReachEm;
}

/** The frame the text widths give a label: their left edge, the label's right, their heights. */
function shownFrame(widths: readonly Box[], box: Box): Frame {
  return {
    left: Math.min(...widths.map((w) => w.left)),
    right: box.right,
    bottom: Math.min(...widths.map((w) => w.bottom)),
    top: Math.max(...widths.map((w) => w.top)),
    lines: 0,
  };
}

/**
 * Whether the content on the label's row left of it (or, for a label on its own line, the row
 * above it) is centred between `frame`'s left edge and the label's right edge, within the
 * tolerance a display's centring is judged by.
 */
function centredBeside(
  box: Box,
  chars: PageChars,
  index: BandIndex,
  label: CharRange,
  xMin: number,
  em: number,
  frame: Frame,
  bodyLines: readonly BodyLine[],
): boolean {
  const h = box.top - box.bottom;
  const found = index.scan(box.bottom + h * S.labelCoreShare, box.top - h * S.labelCoreShare);
  const row: number[] = [];
  for (let j = 0; j < found; j++) {
    const k = index.hits[j];
    if ((k < label.first || k > label.last) && chars.x0[k] >= xMin && chars.x1[k] <= box.left + S.touchPt)
      row.push(k);
  }
  const span = spanOf(
    chars,
    row.length > 0 ? row : nearestRow(chars, index, box, em, xMin, box.left, 1, label),
  );
  // Set apart on both sides, as a display is; a line of running text (beside a margin note) is not.
  if (
    !span ||
    span.x0 - frame.left < em * S.displayClearanceEm ||
    box.left - span.x1 < em * S.centredBesideGapEm
  )
    return false;
  for (const line of bodyLines)
    if (line.box.bottom < span.y1 && line.box.top > span.y0 && line.box.right > span.x0) return false;
  const tolerance = Math.max(em * S.centredEm, (frame.right - frame.left) * S.centredShare);
  return Math.abs((span.x0 + span.x1) / 2 - (frame.left + frame.right) / 2) <= tolerance;
}

function framesUnion(list: readonly Frame[]): Box | undefined {
  if (list.length === 0) return undefined;
  return {
    left: Math.min(...list.map((f) => f.left)),
    right: Math.max(...list.map((f) => f.right)),
    bottom: Math.min(...list.map((f) => f.bottom)),
    top: Math.max(...list.map((f) => f.top)),
  };
}

/** How far the token stands from the frame's nearer edge. */
function frameScore(box: Box, f: Frame): number {
  return Math.min(Math.abs(box.right - f.right), Math.abs(box.left - f.left));
}

/**
 * Among the frames the token stands within (and, for a page's own frames, near in height), one whose
 * edge it stands at before one whose edge it does not (ragged-right lines give frames whose right
 * edges differ by a little); then the one whose edge it stands closest to; among near-equals, the
 * one with more lines.
 */
function bestFrame(box: Box, pool: Frame[], em: number, tolerance: number, near: boolean): Frame | undefined {
  const centre = (box.left + box.right) / 2;
  let chosen: Frame | undefined;
  let chosenScore = 0;
  for (const f of pool) {
    if (centre < f.left - em * S.frameReachEm || centre > f.right + em * S.frameReachEm) continue;
    if (near && !(box.top >= f.bottom - em * S.frameNearEm && box.bottom <= f.top + em * S.frameNearEm))
      continue;
    const score = frameScore(box, f);
    // A frame whose edge the token stands at wins over one it does not; then the nearer edge.
    const atEdge = score <= tolerance;
    const chosenAtEdge = chosenScore <= tolerance;
    const tied = Math.abs(score - chosenScore) <= tolerance;
    const better =
      !chosen ||
      (atEdge && !chosenAtEdge) ||
      (atEdge === chosenAtEdge && (score < chosenScore - tolerance || (tied && f.lines > chosen.lines)));
    if (better) {
      chosen = f;
      chosenScore = score;
    }
  }
  return chosen;
}
