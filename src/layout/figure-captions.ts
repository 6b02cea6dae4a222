/**
 * Figure captions decided by layout, not by a pattern on a line. A candidate is a row that begins
 * "Figure N", "Fig. N", "Fig N" or "FIG. N", or the same in another language ("Abbildung 3", "Рис. 3",
 * "图 3"; caption-keywords.ts), followed by a separator (".", ":", "|", a dash) or
 * directly by the caption's words. It is a caption when it starts a block (it is not a sentence
 * inside a paragraph), its label is followed by the caption's text, and it sits by a figure's
 * graphics or shares the formatting of the document's captions that do (see caption-decisions.ts).
 */
import { boxesMeet } from "../document/box-union.js";
import type { Box, PageText } from "../document/model.js";
import { decideCaption } from "./caption-decision.js";
import { type CaptionFeatures, keywordLanguages } from "./caption-features.js";
import { figureKeywordPattern } from "./caption-keywords.js";
import type { CaptionRejection } from "./caption-rejections.js";
import { spanOf } from "./char-spans.js";
import { type FigureSurroundings, type GraphicsBeside, graphicsBeside } from "./figure-graphics.js";
import { isFigureLabel } from "./labels.js";
import { type LayoutBudget, UNBOUNDED } from "./layout-budget.js";
import type { BandIndex, PageChars } from "./page-chars.js";
import { CAPTION_SETTINGS as C } from "./settings.js";
import type { BodyLine, DocumentFrames } from "./text-frames.js";

/** The keyword as printed: "Figure", "FIG.", "Abb.", "Рис.", "图" (see caption-keywords.ts). */
export type CaptionKeyword = string;
/**
 * What follows the caption's number: a period, a colon (also after a space, as French typography
 * sets it; full-width after a Chinese or Japanese keyword), a vertical bar, a dash, or nothing but a
 * space before the caption's words ("").
 */
export type CaptionSeparator = "." | ":" | "：" | "|" | "–" | "—" | "";

export {
  CAPTION_REJECTION_MEANINGS,
  CAPTION_REJECTIONS,
  type CaptionRejection,
} from "./caption-rejections.js";

export interface CaptionCandidate {
  label: string;
  page: number;
  keyword: CaptionKeyword;
  separator: CaptionSeparator;
  /** The caption's opening words as printed (up to 80 characters). */
  text: string;
  /** Box of "Figure N." */
  labelBox: Box;
  /** Box of the caption's block (its lines). */
  captionBox: Box;
  /** The graphics beside the caption, above and below it. */
  graphics: GraphicsBeside;
  /** Formatting that consistency compares: keyword, separator, font and size of the keyword. */
  style: string;
  /** The keyword's font (subset prefix removed) and printed size, to compare with the running text. */
  labelFont: string;
  labelSize: number;
  /**
   * The label is set apart from the caption's first words after it on its row: another font or size
   * (a bold "Figure 3" before plain words), told by the page's own fonts, so also when the fonts have
   * no names (Type 3 bitmap fonts); or a space wider than the row's word spaces.
   */
  labelSetApart: boolean;
  /** The caption's whole text as read (up to CAPTION_TEXT_MAX characters), for the panels it names. */
  fullText: string;
  /** Rejections found on the page alone; the document-wide consistency step decides "no-figure". */
  rejections: CaptionRejection[];
  /** What the decision reads (caption-decision.ts); the document step fills in its own features. */
  features: CaptionFeatures;
  /** The decision's predicates that held, in its table's order. */
  decidedBy: string[];
}

/**
 * "Figure N" and its forms, after a line break or a space (a caption can share a text line with
 * the column beside it; the geometry then decides whether it starts its own line), and what follows.
 */
const CAPTION_START = new RegExp(
  `(^|\\n|[ \\t\\u00a0])((${figureKeywordPattern()})[ \\t\\u00a0]?([A-Z]{0,2}\\.?\\d{1,3}(?:\\.\\d{1,3}){0,2}[a-z]?)` +
    `(?:([ \\t\\u00a0\\u202f]?)([:：|–—])|(\\.)|(?=[ \\t\\u00a0]+[\\p{L}(]|\\p{Script=Han}))(?![\\d.]))`,
  "gu",
);

/** Tokens beyond this many in one page's lines that do not start them are not judged (bounds the work). */
const MAX_MID_LINE_TOKENS = 200;

/** A line of the page's text that could open a caption: "Figure N." and the like. */
export interface CaptionToken {
  /** UTF-16 offsets of "Figure N." in PageText.text. */
  startUtf16: number;
  endUtf16: number;
  label: string;
  keyword: CaptionKeyword;
  separator: CaptionSeparator;
  /** A space stands between the number and the separator ("Figure 1 :"). */
  spacedSeparator: boolean;
  /** The token does not start a line of the page's text (the geometry decides whether it starts a row). */
  midLine: boolean;
}

/** The lines in the page's text that could open a caption (no geometry needed). */
export function captionTokens(text: PageText): CaptionToken[] {
  const out: CaptionToken[] = [];
  let midLine = 0;
  for (const m of text.text.matchAll(CAPTION_START)) {
    if (!isFigureLabel(m[4])) continue;
    const mid = m[1] !== "\n" && m.index > 0;
    if (mid && ++midLine > MAX_MID_LINE_TOKENS) continue;
    const start = m.index + m[1].length;
    const separator = (m[6] ?? m[7] ?? "") as CaptionSeparator;
    out.push({
      startUtf16: start,
      endUtf16: start + m[2].length,
      label: m[4],
      keyword: m[3] as CaptionKeyword,
      separator,
      spacedSeparator: (m[5] ?? "").length > 0,
      midLine: mid,
    });
  }
  return out;
}

export function captionCandidates(
  text: PageText,
  chars: PageChars,
  index: BandIndex,
  frames: DocumentFrames,
  tokens: CaptionToken[] = captionTokens(text),
  budget: LayoutBudget = UNBOUNDED,
): CaptionCandidate[] {
  const out: CaptionCandidate[] = [];
  const judged: { token: CaptionToken; members: number[] }[] = [];
  for (const token of tokens) {
    const members: number[] = [];
    for (let i = token.startUtf16; i < token.endUtf16; i++) {
      const k = chars.indexOfOffset[i];
      if (k >= 0 && members[members.length - 1] !== k) members.push(k);
    }
    if (members.length > 0) judged.push({ token, members });
  }
  // The first rows of every candidate on the page: a figure does not reach across another caption.
  const rows = judged.map(({ members }) => extent(chars, members));
  for (let j = 0; j < judged.length; j++) {
    budget.check();
    const others = rows.filter((_, i) => i !== j);
    const candidate = judge(text, chars, index, frames, judged[j].members, judged[j].token, others);
    if (candidate) out.push(candidate);
  }
  return out;
}

/**
 * The tokens whose characters run up or down the page rather than across it (a caption set
 * sideways), with the quarter turn (clockwise) that sets them left to right.
 */
export function turnedTokens(
  chars: PageChars,
  tokens: CaptionToken[],
): { token: CaptionToken; turn: 90 | 270 }[] {
  const out: { token: CaptionToken; turn: 90 | 270 }[] = [];
  for (const token of tokens) {
    let first = -1;
    let last = -1;
    for (let i = token.startUtf16; i < token.endUtf16; i++) {
      const k = chars.indexOfOffset[i];
      if (k < 0) continue;
      if (first < 0) first = k;
      last = k;
    }
    if (first < 0 || last === first) continue;
    const dx = (chars.x0[last] + chars.x1[last] - chars.x0[first] - chars.x1[first]) / 2;
    const dy = (chars.y0[last] + chars.y1[last] - chars.y0[first] - chars.y1[first]) / 2;
    const em = chars.size[first] > 0 ? chars.size[first] : 10;
    if (Math.abs(dy) < em || Math.abs(dy) < Math.abs(dx) * 3) continue;
    out.push({ token, turn: dy > 0 ? 90 : 270 });
  }
  return out;
}

/** Gaps wider than this (in em) on a row separate columns: the caption's row ends there. */
const COLUMN_GAP_EM = 2;
/** The caption text read, at most (UTF-16 units). */
const CAPTION_TEXT_MAX = 600;

function judge(
  text: PageText,
  chars: PageChars,
  index: BandIndex,
  frames: DocumentFrames,
  members: number[],
  token: CaptionToken,
  otherCaptions: Box[],
): CaptionCandidate | undefined {
  const first = members[0];
  const em = chars.size[first] > 0 ? chars.size[first] : 10;
  const base = chars.base[first];
  let left = Infinity;
  let bottom = Infinity;
  let right = -Infinity;
  let top = -Infinity;
  for (const k of members) {
    if (Math.abs(chars.base[k] - base) > em * C.baselineEm) return undefined;
    left = Math.min(left, chars.x0[k]);
    bottom = Math.min(bottom, chars.y0[k]);
    right = Math.max(right, chars.x1[k]);
    top = Math.max(top, chars.y1[k]);
  }
  const labelBox = { left, bottom, right, top };
  const memberSet = new Set(members);

  // The caption's first row (up to a column gap), and the rows that follow it at the same leading.
  const rowOf = (b: number) =>
    index
      .band(b - em * C.baselineEm, b + em * C.baselineEm)
      .filter((k) => Math.abs(chars.base[k] - b) <= em * C.baselineEm);
  const row = rowOf(base);
  const before = row.filter((k) => !memberSet.has(k) && chars.x1[k] <= left + 0.5 && chars.x1[k] > left - em);
  const textBefore = before.length > 0;
  const besideColumn = textBefore ? columnBeside(chars, index, before, base, em, left) : undefined;
  const captionBeside =
    textBefore && !besideColumn
      ? captionRowBefore(chars, index, row, before, labelBox, otherCaptions, em)
      : undefined;
  // Captions side by side: each ends where the next one on its row begins.
  let end = Infinity;
  for (const o of otherCaptions)
    if (o.left > right && o.bottom < top && o.top > bottom) end = Math.min(end, o.left - 0.5);
  const columns = [...(frames.pageFrames[text.page - 1] ?? []), ...frames.docFrames];
  const firstRow = rowFrom(chars, row, left, em, columns).filter((k) => chars.x0[k] < end);
  const rowSpan = extent(chars, firstRow);
  const block = { ...rowSpan };
  const rows: Box[] = [rowSpan];
  const beside = textBeside(chars, rowBand(chars, index, rowSpan, em), firstRow);
  let lastBase = base;
  for (let step = 0; step < 60; step++) {
    const next = rowBelow(chars, index, lastBase, em, block.left, block.right);
    if (next === undefined) break;
    const nextRow = rowOf(next);
    // A row whose words run on, at word spacing, from the text beside the first row into the
    // caption's span is that text's paragraph continuing past the caption (the full-width lines
    // under a wrapped figure), not the caption.
    if (bridgesGutter(chars, nextRow, beside, em)) break;
    const ownSide = nextRow.filter(
      (k) => chars.x1[k] > beside.leftEnd + GUTTER_MARGIN && chars.x0[k] < beside.rightStart - GUTTER_MARGIN,
    );
    const span = extent(
      chars,
      rowWithin(chars, ownSide, block, em, columns).filter((k) => chars.x0[k] < end),
    );
    block.left = Math.min(block.left, span.left);
    block.right = Math.max(block.right, span.right);
    block.bottom = Math.min(block.bottom, span.bottom);
    rows.push(span);
    lastBase = next;
  }

  // Inside a paragraph: a running-text line just above, at the body's leading.
  const bodyLines = frames.bodyLines[text.page - 1] ?? [];
  const lineAbove = bodyLines.find(
    (l) =>
      l.box.bottom >= top - em * C.lineAboveOverlapEm &&
      l.box.bottom - top <= em * C.lineAboveGapEm &&
      l.box.left < rowSpan.right &&
      l.box.right > rowSpan.left &&
      Math.abs(l.box.left - rowSpan.left) <= em * C.lineAboveIndentEm,
  );
  // A row centred in its column, indented alike on both sides, opens a caption: running text
  // is set flush with the column's edges.
  const centred = centredInColumn(rowSpan, frames, text.page, em);
  const rowAbove =
    !centred && !lineAbove
      ? paragraphRowAbove(chars, index, base, em, rowSpan.left, otherCaptions)
      : undefined;
  const inParagraph = !centred && (lineAbove !== undefined || rowAbove === true);
  const runsOn = inParagraph ? undefined : runsIntoParagraph(rows, em);

  const rest = text.text.slice(token.endUtf16, token.endUtf16 + 200);
  const restOfLine = rest.split("\n", 2);
  const captionText = /\p{L}/u.test(restOfLine[0]) || /\p{L}/u.test(restOfLine[1] ?? "");

  const graphics = graphicsBeside(
    surroundings(text, bodyLines, block, otherCaptions, frames, beside),
    block,
    labelBox,
    em,
  );
  const font = chars.font[first] >= 0 ? (text.fonts[chars.font[first]] ?? "") : "";
  const labelFont = font.replace(/^[A-Z]{6}\+/, "");
  const size = Math.round(em * 2) / 2;
  const after = firstLetterAfter(text, chars, token.endUtf16, base, em);
  const labelSetApart =
    after >= 0 &&
    (chars.font[after] !== chars.font[first] ||
      Math.abs(chars.size[after] - em) > em * C.labelSizeShare ||
      wideSpaceBefore(chars, firstRow, members[members.length - 1], after, em));
  const fullText = captionTextOf(text, chars, token.startUtf16, block, CAPTION_TEXT_MAX);
  const features: CaptionFeatures = {
    emPt: em,
    keyword: token.keyword,
    languages: keywordLanguages(token.keyword),
    label: token.label,
    separator: token.separator,
    spacedSeparator: token.spacedSeparator,
    textBefore,
    columnBeside: besideColumn,
    captionBeside,
    bodyLineAbove: lineAbove !== undefined,
    paragraphRowAbove: rowAbove,
    centredInColumn: centred,
    runsIntoParagraph: runsOn,
    captionText,
    labelSetApart,
    graphicsAbove: graphics.above !== undefined,
    graphicsBelow: graphics.below !== undefined,
    likeBody: undefined,
    documentMarksCaptions: undefined,
    graphicsOnDocumentSide: undefined,
    sharesAnchoredStyle: undefined,
  };
  const decision = decideCaption(features, "page");
  return {
    label: token.label,
    page: text.page,
    keyword: token.keyword,
    separator: token.separator,
    text: fullText.length <= 80 ? fullText : fullText.slice(0, 80),
    labelBox: round(labelBox),
    captionBox: round(block),
    graphics: {
      ...(graphics.above ? { above: { gap: graphics.above.gap, box: round(graphics.above.box) } } : {}),
      ...(graphics.below ? { below: { gap: graphics.below.gap, box: round(graphics.below.box) } } : {}),
    },
    style: `${token.keyword}|${token.spacedSeparator ? " " : ""}${token.separator}|${labelFont}|${size}`,
    labelFont,
    labelSize: size,
    labelSetApart,
    fullText,
    rejections: decision.reasons,
    features,
    decidedBy: decision.decidedBy,
  };
}

/**
 * What stands around a caption: running text (body lines as wide as the page's usual body line) and
 * other captions bound its figure; the page's other text lines may belong to the figure.
 */
function surroundings(
  text: PageText,
  bodyLines: readonly BodyLine[],
  block: Box,
  otherCaptions: Box[],
  frames: DocumentFrames,
  textBeside: Beside,
): FigureSurroundings {
  const widths = bodyLines.map((l) => l.box.right - l.box.left).sort((a, b) => a - b);
  const usual = widths.length > 0 ? widths[Math.floor(widths.length / 2)] : 0;
  // Another caption across the block's column bounds the figure, however far its label stands to one side.
  const barriers: Box[] = otherCaptions.map((o) =>
    o.left < block.right && o.right > block.left
      ? { ...o, left: Math.min(o.left, block.left), right: Math.max(o.right, block.right) }
      : o,
  );
  const wide = new Set<Box>();
  for (const l of bodyLines) {
    if (boxesMeet(l.box, block) || l.box.right - l.box.left < usual * 0.8) continue;
    // Set smaller or larger than the running text (a row of subcaptions, a legend): the figure's own.
    if (Math.abs(l.fontSize - frames.bodySize) > frames.bodySize * BARRIER_SIZE_TOLERANCE) continue;
    // A wide line alone (a row of subcaptions, a figure's title) is no paragraph.
    if (!bodyLines.some((o) => o !== l && paragraphNeighbours(l.box, o.box))) continue;
    barriers.push(l.box);
    wide.add(l.box);
  }
  const figureText: Box[] = [];
  for (const l of text.lines) {
    if (wide.has(l.box) || boxesMeet(l.box, block)) continue;
    if (otherCaptions.some((c) => boxesMeet(c, l.box))) continue;
    figureText.push(l.box);
    if (figureText.length >= MAX_FIGURE_LINES) break;
  }
  const columns = [...(frames.pageFrames[text.page - 1] ?? []), ...frames.docFrames];
  return {
    graphics: text.graphics,
    barriers,
    figureText,
    textBlock: frames.textBlock,
    page: text.cropBox,
    columns,
    otherCaptions,
    textBeside,
  };
}

/** The row stands in a column of running text, indented by at least an em on each side, alike. */
function centredInColumn(row: Box, frames: DocumentFrames, page: number, em: number): boolean {
  let best: { left: number; right: number } | undefined;
  for (const f of [...(frames.pageFrames[page - 1] ?? []), ...frames.docFrames]) {
    if (f.left > row.left + 0.5 || f.right < row.right - 0.5) continue;
    if (!best || f.right - f.left < best.right - best.left) best = f;
  }
  if (!best) return false;
  const leftIndent = row.left - best.left;
  const rightIndent = best.right - row.right;
  return leftIndent >= em && rightIndent >= em && Math.abs(leftIndent - rightIndent) <= em * C.centredEvenEm;
}

/**
 * The text before the label on its row is a column beside the caption (running text around a
 * wrapped figure): it ends at least 0.8 em before the label, at a right edge that the rows above
 * and below end at too. A sentence's words before "Figure N" end where the words happen to end.
 */
/**
 * The text just before the label is the row of another caption set beside this one (side by side
 * figures, each captioned): that caption's label opens the row, and the gap before this label is
 * wider than the word spaces of that caption's text on the row, or another row of that caption
 * ends at the same edge (two justified blocks side by side, parted by no more than a word space).
 */
function captionRowBefore(
  chars: PageChars,
  index: BandIndex,
  row: readonly number[],
  before: readonly number[],
  labelBox: Box,
  otherCaptions: readonly Box[],
  em: number,
): boolean {
  let edge = -Infinity;
  for (const k of before) edge = Math.max(edge, chars.x1[k]);
  const gap = labelBox.left - edge;
  if (gap < em * C.besideCaptionGapEm) return false;
  const level = (o: Box) =>
    Math.min(o.top, labelBox.top) - Math.max(o.bottom, labelBox.bottom) >
    (labelBox.top - labelBox.bottom) * 0.5;
  const opener = otherCaptions.find((o) => level(o) && o.right < edge && o.left < labelBox.left - em);
  if (!opener) return false;
  const base = chars.base[before[0]];
  if (rowsEndingAt(chars, index, edge, base, em, labelBox.left) >= 1) return true;
  if (nextRowStartsAt(chars, index, base, labelBox.left, em)) return true;
  const text = row
    .filter((k) => chars.x0[k] >= opener.left - 0.5 && chars.x1[k] <= edge + 0.5)
    .sort((a, b) => chars.x0[a] - chars.x0[b]);
  const spaces: number[] = [];
  for (let i = 1; i < text.length; i++) {
    const g = chars.x0[text[i]] - chars.x1[text[i - 1]];
    if (g > em * C.letterGapEm) spaces.push(g);
  }
  if (spaces.length < 2) return false;
  spaces.sort((a, b) => a - b);
  return gap > spaces[spaces.length - 1] * C.besideCaptionSpaceShare;
}

function columnBeside(
  chars: PageChars,
  index: BandIndex,
  before: readonly number[],
  base: number,
  em: number,
  left: number,
): boolean {
  let edge = -Infinity;
  for (const k of before) edge = Math.max(edge, chars.x1[k]);
  if (left - edge < em * C.columnGapEm) return false;
  return rowsEndingAt(chars, index, edge, base, em, left) >= 2;
}

/**
 * The row under `base` (at a leading's distance) has text starting at `x`, apart from anything to
 * its left by more than a word space: a block of its own starts at `x`, as this caption's does.
 */
function nextRowStartsAt(chars: PageChars, index: BandIndex, base: number, x: number, em: number): boolean {
  const tol = edgeTolerance(em);
  const found = index.scan(base - em * C.leadingMaxEm, base - em * C.leadingMinEm);
  let start = false;
  let leftReach = -Infinity;
  for (let j = 0; j < found; j++) {
    const k = index.hits[j];
    const d = base - chars.base[k];
    if (d < em * C.leadingMinEm || d > em * C.leadingMaxEm) continue;
    if (Math.abs(chars.x0[k] - x) <= tol) start = true;
    else if (chars.x1[k] <= x + tol) leftReach = Math.max(leftReach, chars.x1[k]);
  }
  return start && x - leftReach > em * BRIDGE_GAP_EM;
}

/** How many other rows within three em of `base` end their text left of `left` at `edge` (edgeTolerance). */
function rowsEndingAt(
  chars: PageChars,
  index: BandIndex,
  edge: number,
  base: number,
  em: number,
  left: number,
): number {
  const ends = new Map<number, number>();
  const found = index.scan(base - em * C.rowsReachEm, base + em * C.rowsReachEm);
  for (let j = 0; j < found; j++) {
    const k = index.hits[j];
    if (Math.abs(chars.base[k] - base) < em * 0.5 || chars.x0[k] >= left - 0.5) continue;
    const row = Math.round(chars.base[k] / (em * C.rowStepEm));
    ends.set(row, Math.max(ends.get(row) ?? -Infinity, chars.x1[k]));
  }
  let shared = 0;
  const tolerance = edgeTolerance(em);
  for (const end of ends.values()) if (Math.abs(end - edge) <= tolerance) shared++;
  return shared;
}

/** How far (a share of the body size) a line's size may be from the running text's to bound a figure. */
const BARRIER_SIZE_TOLERANCE = 0.05;

/** Two lines one above the other at a paragraph's leading, sharing their left or right edge. */
function paragraphNeighbours(a: Box, b: Box): boolean {
  const h = Math.max(a.top - a.bottom, b.top - b.bottom, 1);
  const d = Math.abs(a.bottom - b.bottom);
  if (d < h * 0.8 || d > h * 2.2) return false;
  return Math.abs(a.left - b.left) <= 2 || Math.abs(a.right - b.right) <= 2;
}

/**
 * The rows at one leading from the candidate down hold a paragraph's end and the next paragraph's
 * start: rows flush with the first up to a short one, then a row indented as a paragraph opens, as
 * wide as the others, then a row flush with the first again. A caption is one paragraph set off from
 * the running text by space; this is running text (a line that a forced break or a page break made
 * start with "Figure N."). A hanging caption's later rows stay indented, so they show no such shape.
 */
function runsIntoParagraph(rows: readonly Box[], em: number): boolean {
  const left = rows[0].left;
  const flush = (r: Box) => Math.abs(r.left - left) <= em * C.flushEm;
  for (let i = 1; i + 1 < rows.length; i++) {
    const before = rows[i - 1];
    if (!flush(before)) return false;
    let width = -Infinity;
    for (let j = 0; j <= i + 1; j++) width = Math.max(width, rows[j].right);
    // A row indented as a paragraph's first line, running to the full width, with a flush row
    // under it: the next paragraph, whether or not the row above it ends short.
    const indent = rows[i].left - left;
    const opens = indent >= em * C.paragraphIndentMinEm && indent <= em * C.paragraphIndentMaxEm;
    if (opens && rows[i].right >= width - em && flush(rows[i + 1])) return true;
    // The first short row ends the paragraph the candidate opens, and no paragraph follows it.
    if (before.right <= width - em * C.shortRowEm) return false;
  }
  return false;
}

/** Text lines of a page considered as a figure's own text, at most. */
const MAX_FIGURE_LINES = 3000;

/**
 * A row just above at the leading of a paragraph (a short last line or a line broken early), set at
 * the row's own size, flush with it on the left or up to a paragraph's indent left of it: the row
 * goes on with that paragraph or opens the next one.
 */
function paragraphRowAbove(
  chars: PageChars,
  index: BandIndex,
  base: number,
  em: number,
  left: number,
  otherCaptions: Box[],
): boolean {
  const found = index.scan(base + em * 0.9, base + em * 1.45);
  const hits = index.hits;
  let rowBase = Number.NaN;
  let rowLeft = Infinity;
  let rowRight = -Infinity;
  for (let j = 0; j < found; j++) {
    const k = hits[j];
    const d = chars.base[k] - base;
    if (d < em * C.rowAboveMinEm || d > em * C.rowAboveMaxEm) continue;
    if (Math.abs(chars.size[k] - em) > em * C.rowAboveSizeShare) continue;
    if (chars.x1[k] < left - em || chars.x0[k] > left + em * 30) continue;
    if (Number.isNaN(rowBase) || Math.abs(chars.base[k] - rowBase) <= em * 0.2) {
      rowBase = Number.isNaN(rowBase) ? chars.base[k] : rowBase;
      rowLeft = Math.min(rowLeft, chars.x0[k]);
      rowRight = Math.max(rowRight, chars.x1[k]);
    }
  }
  if (Number.isNaN(rowBase) || rowLeft - left > em * C.rowAboveFlushEm) return false;
  // Indented as a paragraph's first line under the last one's end, which runs on over it (the
  // last letters of a column beside the caption do not).
  const indented = left - rowLeft > em * C.rowAboveFlushEm;
  if (indented && (left - rowLeft > em * C.lineAboveIndentEm || rowRight < left + em)) return false;
  // Another caption's row is no paragraph.
  return !otherCaptions.some((c) => c.bottom <= rowBase + em * 0.3 && c.top >= rowBase - em * 0.1);
}

/**
 * The characters level with a row (their boxes meet its height by a quarter of the smaller one,
 * whatever their baseline: text beside a caption set in a smaller size keeps its own leading).
 */
function rowBand(chars: PageChars, index: BandIndex, row: Box, em: number): number[] {
  return index.band(row.bottom - em, row.top + em).filter((k) => {
    const meet = Math.min(chars.y1[k], row.top) - Math.max(chars.y0[k], row.bottom);
    return meet > Math.min(chars.y1[k] - chars.y0[k], row.top - row.bottom) * 0.25;
  });
}

/**
 * Where the text beside the caption's first row stands: the right end of the row's characters left
 * of it and the left start of those right of it (-Infinity and Infinity when there are none).
 */
function textBeside(chars: PageChars, row: readonly number[], firstRow: readonly number[]): Beside {
  const own = new Set(firstRow);
  let from = Infinity;
  let to = -Infinity;
  for (const k of firstRow) {
    from = Math.min(from, chars.x0[k]);
    to = Math.max(to, chars.x1[k]);
  }
  let leftEnd = -Infinity;
  let rightStart = Infinity;
  for (const k of row) {
    if (own.has(k)) continue;
    if (chars.x1[k] <= from + 0.5) leftEnd = Math.max(leftEnd, chars.x1[k]);
    else if (chars.x0[k] >= to - 0.5) rightStart = Math.min(rightStart, chars.x0[k]);
  }
  return { leftEnd, rightStart, from, to };
}

interface Beside {
  /** Right end of the first row's text left of the caption (-Infinity when none). */
  leftEnd: number;
  /** Left start of the first row's text right of the caption (Infinity when none). */
  rightStart: number;
  /** The caption's first row, left to right. */
  from: number;
  to: number;
}

/**
 * Whether the row holds a stretch of characters, no gap in it wider than a word space, reaching
 * from well inside the text beside the caption's first row across the whole of that row.
 */
function bridgesGutter(chars: PageChars, row: readonly number[], b: Beside, em: number): boolean {
  if (b.leftEnd === -Infinity && b.rightStart === Infinity) return false;
  const sorted = [...row].sort((x, y) => chars.x0[x] - chars.x0[y]);
  const wordSpace = em * BRIDGE_GAP_EM;
  let from = Infinity;
  let reach = -Infinity;
  // The stretch covers the first row's whole span as well (the first row may itself run on into a
  // column beside it that stands closer than a column gap).
  const bridges = () =>
    (from < b.leftEnd - em && reach > b.to - em) || (from < b.from + em && reach > b.rightStart + em);
  // A gap standing where the first row's own gutter stands (both its ends within the tolerance
  // of the gutter's) parts the row however narrow: two justified blocks side by side.
  const tol = edgeTolerance(em);
  const atGutter = (x0: number) =>
    (Math.abs(reach - b.leftEnd) <= tol && Math.abs(x0 - b.from) <= tol) ||
    (Math.abs(reach - b.to) <= tol && Math.abs(x0 - b.rightStart) <= tol);
  for (const k of sorted) {
    const x0 = chars.x0[k];
    if (x0 - reach > wordSpace || (x0 - reach > em * C.letterGapEm && atGutter(x0))) {
      if (bridges()) return true;
      from = chars.x0[k];
    }
    from = Math.min(from, chars.x0[k]);
    reach = Math.max(reach, chars.x1[k]);
  }
  return bridges();
}

/**
 * How far apart two edges may stand and be one: a point, or 0.15 em at larger sizes (justified rows
 * end at one advance, their last glyphs' ink does not).
 */
function edgeTolerance(em: number): number {
  return Math.max(1, em * 0.15);
}

/** The widest gap (in em) between words of one line of running text, justified. */
const BRIDGE_GAP_EM = 0.6;
/** Points a character may reach into a gutter (kerning, glyph overhang) and not stand in it. */
const GUTTER_MARGIN = 0.5;

/** A row's characters in the stretches (split at column gaps) that overlap the block across. */
function rowWithin(
  chars: PageChars,
  row: number[],
  block: Box,
  em: number,
  columns: readonly ColumnEdges[],
): number[] {
  const sorted = row.filter((k) => chars.x1[k] > block.left - em && chars.x0[k] < block.right + em);
  sorted.sort((a, b) => chars.x0[a] - chars.x0[b]);
  const out: number[] = [];
  let stretch: number[] = [];
  let reach = -Infinity;
  const flush = () => {
    if (stretch.length === 0) return;
    const from = chars.x0[stretch[0]];
    if (Math.min(reach, block.right) - Math.max(from, block.left) > em) out.push(...stretch);
    stretch = [];
  };
  for (const k of sorted) {
    if (stretch.length > 0 && columnGap(reach, chars.x0[k], em, columns)) flush();
    if (stretch.length === 0) reach = -Infinity;
    stretch.push(k);
    reach = Math.max(reach, chars.x1[k]);
  }
  flush();
  return out;
}

/** The row's characters from the label on, up to the first column gap. */
function rowFrom(
  chars: PageChars,
  row: number[],
  left: number,
  em: number,
  columns: readonly ColumnEdges[],
): number[] {
  const after = row.filter((k) => chars.x0[k] >= left - 0.5).sort((a, b) => chars.x0[a] - chars.x0[b]);
  const out: number[] = [];
  let reach = -Infinity;
  for (const k of after) {
    if (out.length > 0 && columnGap(reach, chars.x0[k], em, columns)) break;
    out.push(k);
    reach = Math.max(reach, chars.x1[k]);
  }
  return out;
}

interface ColumnEdges {
  left: number;
  right: number;
}

/**
 * Whether the gap between `reach` and `next` on a row parts two columns: as wide as a column gap,
 * or wider than a word space where one column of the page's running text ends and another begins
 * (columns set closer than two em, as two-column classes do).
 */
function columnGap(reach: number, next: number, em: number, columns: readonly ColumnEdges[]): boolean {
  const gap = next - reach;
  if (gap > em * COLUMN_GAP_EM) return true;
  if (gap <= em * BRIDGE_GAP_EM) return false;
  return (
    columns.some((c) => c.right >= reach - em && c.right <= next + GUTTER_MARGIN) &&
    columns.some((c) => c.left >= reach - GUTTER_MARGIN && c.left <= next + em)
  );
}

/** The baseline of the next row below `base` that overlaps left..right, within a leading's reach. */
function rowBelow(
  chars: PageChars,
  index: BandIndex,
  base: number,
  em: number,
  left: number,
  right: number,
): number | undefined {
  let best: number | undefined;
  const found = index.scan(base - em * 1.8, base - em * 0.2);
  const hits = index.hits;
  for (let j = 0; j < found; j++) {
    const k = hits[j];
    const d = base - chars.base[k];
    if (d < em * C.leadingMinEm || d > em * C.leadingMaxEm) continue;
    if (chars.x1[k] < left || chars.x0[k] > right) continue;
    if (Math.abs(chars.size[k] - em) > em * C.rowBelowSizeShare) continue;
    if (best === undefined || chars.base[k] > best) best = chars.base[k];
  }
  return best;
}

/**
 * The space between the label's number and the caption's first letter is wider than the row's word
 * spaces: an em quad, or a separator drawn with a glyph the text layer has no character for (a
 * dash in a font with no Unicode map). Justification stretches every word space of a row alike.
 */
function wideSpaceBefore(
  chars: PageChars,
  row: readonly number[],
  label: number,
  after: number,
  em: number,
): boolean {
  const gap = chars.x0[after] - chars.x1[label];
  if (gap < em * C.wideSpaceEm) return false;
  const sorted = [...row].sort((a, b) => chars.x0[a] - chars.x0[b]);
  const spaces: number[] = [];
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i - 1] === label && sorted[i] === after) continue;
    const g = chars.x0[sorted[i]] - chars.x1[sorted[i - 1]];
    if (g > em * C.letterGapEm) spaces.push(g);
  }
  if (spaces.length < 2) return false;
  spaces.sort((a, b) => a - b);
  return gap > spaces[Math.floor(spaces.length / 2)] * C.wideSpaceShare;
}

/** The first letter after `fromUtf16` on the row at `base` (within 40 units), or -1. */
function firstLetterAfter(
  text: PageText,
  chars: PageChars,
  fromUtf16: number,
  base: number,
  em: number,
): number {
  const end = Math.min(text.text.length, fromUtf16 + 40);
  for (let i = fromUtf16; i < end; i++) {
    const k = chars.indexOfOffset[i];
    if (k < 0 || !/\p{L}/u.test(text.text[i])) continue;
    return Math.abs(chars.base[k] - base) <= em * C.baselineEm ? k : -1;
  }
  return -1;
}

/** Whether the text line holding offset `i` (UTF-16) has a character that was read. */
function lineHasChars(all: string, chars: PageChars, i: number): boolean {
  const start = all.lastIndexOf("\n", i) + 1;
  let end = all.indexOf("\n", i);
  if (end < 0) end = all.length;
  for (let j = start; j < end; j++) if (chars.indexOfOffset[j] >= 0) return true;
  return false;
}

/** The caption's words: its text from the keyword on, as long as it stays inside the caption's block. */
function captionTextOf(
  text: PageText,
  chars: PageChars,
  startUtf16: number,
  block: Box,
  max: number,
): string {
  let end = startUtf16;
  for (let i = startUtf16; i < text.text.length && i - startUtf16 < max; i++) {
    const k = chars.indexOfOffset[i];
    // A line none of whose characters were read lies outside the heights the rules read: far from
    // the caption, so the caption ended before it.
    if (k < 0 && /\S/u.test(text.text[i]) && !lineHasChars(text.text, chars, i)) break;
    if (k >= 0) {
      const mid = (chars.y0[k] + chars.y1[k]) / 2;
      if (
        mid < block.bottom - 1 ||
        mid > block.top + 1 ||
        chars.x1[k] < block.left - 1 ||
        chars.x0[k] > block.right + 1
      )
        break;
    }
    end = i + 1;
  }
  return text.text.slice(startUtf16, end).replace(/\s+/g, " ").trim();
}

function extent(chars: PageChars, members: number[]): Box {
  const span = spanOf(chars, members);
  return span
    ? { left: span.x0, bottom: span.y0, right: span.x1, top: span.y1 }
    : { left: Infinity, bottom: Infinity, right: -Infinity, top: -Infinity };
}

function round(b: Box): Box {
  const r = (v: number) => Math.round(v * 100) / 100;
  return { left: r(b.left), bottom: r(b.bottom), right: r(b.right), top: r(b.top) };
}
