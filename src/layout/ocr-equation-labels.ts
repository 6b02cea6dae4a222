/**
 * Equation labels in an OCR reading of a page (a scan): the same layout evidence as on a text
 * layer, from word boxes alone. A label spot is a short group of words at a column's right edge
 * (left edge, leqno) set apart by a wide gap from content beside it; the content must be a display:
 * indented or centred in the column, mathematics-like (relation and operator signs, Greek letters),
 * not words of running text, not a table row, inside the page's text block. The spot's own reading
 * is not trusted: the caller reads its crop again (`cropBoxes`) and the label is what those say.
 */
import { unionOfBoxes } from "../document/box-union.js";
import type { Box } from "../document/model.js";
import type { OcrWord } from "../ocr/page-ocr.js";
import { decideEquation } from "./equation-decision.js";
import { CONTENT_UNMEASURED, type EquationFeatures } from "./equation-features.js";
import { isEquationLabel } from "./labels.js";
import type { RejectionReason } from "./rejection-reasons.js";
import { OCR_EQUATION_SETTINGS as O } from "./settings.js";

export type OcrLabelSide = "right" | "left";

export interface OcrLabelSpot {
  side: OcrLabelSide;
  /** The page reading's text of the spot's words (which may misread the label). */
  printed: string;
  labelBox: Box;
  equationBox: Box;
  /** Framings of the spot for the label to be read again from, from tight to wide. */
  cropBoxes: Box[];
}

export interface OcrLabelSighting {
  /** The label as the page reading gives it, parentheses removed. */
  label: string;
  printed: string;
  labelBox: Box;
  reasons: RejectionReason[];
}

/** What the document's other pages say about this one's layout. */
export interface OcrPageContext {
  /**
   * The top of the document's text block (the highest top of running text two pages share): a display
   * may open a page's body there, while a running head stands above it.
   */
  blockTop?: number;
  /**
   * The document's columns, left and right edges, that two pages read or more share: a page whose own
   * running text is too short to show its columns (three lines sharing an edge) takes these.
   */
  columns?: readonly Frame[];
  /**
   * Bands beside labels (the page's mathBandsToRead) where a finer reading of the band found signs of
   * mathematics the page's reading lost (`=` and `+` read as dashes or not at all): a display's
   * mathematics for the label beside it.
   */
  mathBands?: readonly Box[];
}

/** The top of a page's running text and its line height, when it has running text. */
export interface OcrTextBlock {
  top: number;
  em: number;
}

export interface OcrPageLabels {
  /** Spots the layout accepts as a display's label; the label is still to be read. */
  spots: OcrLabelSpot[];
  /** Parenthesised label-like words of the reading that are not at an accepted spot. */
  sightings: OcrLabelSighting[];
  /**
   * For each spot refused only because nothing beside it reads as mathematics (its label read whole
   * or not): the band beside it, its display's row and the rows next to it, that a finer reading may
   * read signs in (given back as the context's mathBands).
   */
  mathBandsToRead: Box[];
}

interface Row {
  words: OcrWord[];
  box: Box;
}

export interface Frame {
  left: number;
  right: number;
}

interface Spot {
  words: OcrWord[];
  box: Box;
  row: Row;
}

/** A word of running text: letters only (punctuation around them allowed), at least two. */
const PROSE_WORD = /^[("'‘“[]?[A-Za-z][a-z]+[)"'’”\],.;:!?-]*$/;
/** A relation sign opening a word, as an aligned display's rows read (`=`, `=p(0`, `≤`). */
const RELATION_START = /^[=<>≤≥≠≈≡]/;
/** Operators, relations and Greek letters, as OCR gives mathematics (a hyphen or dash alone is not enough). */
const MATH_SIGN = /[=<>≤≥≠≈∼≃≡±×÷∑∏∫√∞∈∉⊂⊆⊃∪∩∧∨¬→←↔⇒⇔∀∃∂∇^+|\u0391-\u03a9\u03b1-\u03c9]/;
/** Function names set upright in mathematics, never evidence of prose. */
const MATH_WORDS = new Set([
  "ln",
  "log",
  "exp",
  "sin",
  "cos",
  "tan",
  "min",
  "max",
  "lim",
  "sup",
  "inf",
  "det",
  "arg",
  "mod",
  "var",
  "cov",
]);
const LABEL_LIKE = /^\(([^()\s]{1,12})\)[.,;:]?$/;
/**
 * A circled sign: how OCR reads a single digit or letter in parentheses when it takes the brackets
 * for a ring (`(8)` read as `®`). Never a label itself; a spot's label is what its crops read.
 */
const RING_READING = /^[®©]$/;

function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function overlapsVertically(a: Box, b: Box, slack: number): boolean {
  return a.bottom - slack < b.top && b.bottom - slack < a.top;
}

/**
 * The rows of a reading: its lines, each cut where a gutter between columns runs (OCR may read a line
 * of two columns as one), so every row stands in one column.
 */
/**
 * A page's rows: the reading's lines, cut at the page's gutters, and at the document's (between the
 * columns other pages show) where a line leaves the gutter clear.
 */
function rowsOf(words: readonly OcrWord[], columns: readonly Frame[] = []): Row[] {
  const cuts = gutters(words);
  const byLine = new Map<string, OcrWord[]>();
  for (const w of words) {
    if (!(w.box.right > w.box.left && w.box.top > w.box.bottom)) continue;
    const column = cuts.filter((x) => (w.box.left + w.box.right) / 2 > x).length;
    const key = `${w.line}:${column}`;
    const list = byLine.get(key) ?? [];
    list.push(w);
    byLine.set(key, list);
  }
  const gaps = documentGutters(columns);
  return [...byLine.values()].flatMap((ws) => {
    ws.sort((a, b) => a.box.left - b.box.left);
    return splitAtGutters(ws, gaps).map((part) => ({
      words: part,
      box: unionOfBoxes(part.map((w) => w.box)),
    }));
  });
}

/** The gutters between the document's columns, left to right: the space from one column's right edge to the next one's left. */
function documentGutters(columns: readonly Frame[]): Frame[] {
  const sorted = [...columns].sort((a, b) => a.left - b.left);
  const out: Frame[] = [];
  for (let i = 0; i + 1 < sorted.length; i++)
    if (sorted[i + 1].left > sorted[i].right) out.push({ left: sorted[i].right, right: sorted[i + 1].left });
  return out;
}

/**
 * A line cut where it leaves one of the document's gutters clear: no word of it within the gutter's
 * middle half, and words on both sides. OCR can read the lines of two columns as one when the page
 * lacks the free strip its gutter shows elsewhere (a first page's title, authors and page number stand
 * across it); a line that crosses the gutter (a title, a wide display) stays whole.
 */
function splitAtGutters(words: OcrWord[], gaps: readonly Frame[]): OcrWord[][] {
  const parts: OcrWord[][] = [];
  let rest = words;
  for (const g of gaps) {
    const quarter = (g.right - g.left) / 4;
    const from = g.left + quarter;
    const to = g.right - quarter;
    if (rest.some((w) => w.box.right > from && w.box.left < to)) continue;
    const before = rest.filter((w) => w.box.right <= from);
    if (before.length === 0 || before.length === rest.length) continue;
    parts.push(before);
    rest = rest.slice(before.length);
  }
  parts.push(rest);
  return parts;
}

/**
 * The x positions of gutters between columns: a vertical strip of the middle half of the page's words
 * that few words cross (a title, a wide display), as wide as a line is high (wider than a word space, which may line up over a few lines), with words on both sides.
 */
function gutters(words: readonly OcrWord[]): number[] {
  const boxes = words.map((w) => w.box).filter((b) => b.right > b.left && b.top > b.bottom);
  if (boxes.length < 20) return [];
  const lineHeight = median(boxes.map((b) => b.top - b.bottom));
  const left = Math.floor(Math.min(...boxes.map((b) => b.left)));
  const right = Math.ceil(Math.max(...boxes.map((b) => b.right)));
  const cover = new Int32Array(right - left + 1);
  for (const b of boxes) for (let x = Math.ceil(b.left); x <= Math.floor(b.right); x++) cover[x - left]++;
  const lines = new Set(words.map((w) => w.line)).size;
  // A title or a figure may cross the gutter; words of running text leave no strip so free.
  const free = Math.max(2, 0.08 * lines);
  const from = Math.round((right - left) * 0.25);
  const to = Math.round((right - left) * 0.75);
  const out: number[] = [];
  let start = -1;
  for (let i = from; i <= to + 1; i++) {
    if (i <= to && cover[i] <= free) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= lineHeight) out.push(left + (start + i) / 2);
    start = -1;
  }
  return out;
}

function isProseWord(text: string): boolean {
  return PROSE_WORD.test(text) && !MATH_WORDS.has(text.replace(/[^A-Za-z]/g, "").toLowerCase());
}

/**
 * The share of a line's characters that stand in words of prose, short ones (`the`, `of`) included:
 * a sentence's stray sign or bar read by OCR (`|`) weighs little against its words, where a word
 * count would let short words and one sign outnumber the long ones.
 */
function proseShare(words: readonly OcrWord[]): number {
  let prose = 0;
  let all = 0;
  for (const w of words) {
    all += w.text.length;
    if (isProseWord(w.text)) prose += w.text.length;
  }
  return all > 0 ? prose / all : 0;
}

/** A row of running text: five or more words, most of them words of prose, and long. */
function isRunningRow(row: Row, em: number): boolean {
  if (row.words.length < O.runningRowWords || row.box.right - row.box.left < O.runningRowWidthEm * em)
    return false;
  const prose = row.words.filter((w) => isProseWord(w.text)).length;
  return prose >= 0.5 * row.words.length;
}

/** The columns of running text: rows sharing a right edge (justified), else a left edge (ragged right). */
function framesOf(running: Row[], em: number): Frame[] {
  const frames: Frame[] = [];
  for (const edge of ["right", "left"] as const) {
    const sorted = [...running].sort((a, b) => a.box[edge] - b.box[edge]);
    let group: Row[] = [];
    const flush = () => {
      if (group.length >= 3 && group.length >= 0.2 * running.length) {
        const lefts = group.map((r) => r.box.left);
        const rights = group.map((r) => r.box.right);
        const frame =
          edge === "right"
            ? { left: median(lefts), right: median(rights) }
            : { left: median(lefts), right: Math.max(...rights) };
        if (
          !frames.some(
            (f) =>
              Math.abs(f.left - frame.left) < O.sameColumnEm * em &&
              Math.abs(f.right - frame.right) < O.sameColumnEm * em,
          )
        )
          frames.push(frame);
      }
      group = [];
    };
    for (const row of sorted) {
      if (group.length > 0 && row.box[edge] - group[group.length - 1].box[edge] > em) flush();
      group.push(row);
    }
    flush();
    if (frames.length > 0) return frames;
  }
  return frames;
}

function mirrorBox(b: Box): Box {
  return { left: -b.right, bottom: b.bottom, right: -b.left, top: b.top };
}

function mirrorWords(words: readonly OcrWord[]): OcrWord[] {
  return words.map((w) => ({ ...w, box: mirrorBox(w.box) }));
}

export interface LabelStrip {
  side: OcrLabelSide;
  box: Box;
  /** The left and right edges of the column whose edge the strip runs down. */
  column: { left: number; right: number };
}

/**
 * Where the labels of rows a page's reading dropped would stand: a strip down each column's right
 * edge, and its left edge (left-side labels), over the height of the page's text and some way past it. Read alone, such a
 * strip shows a label whose whole row the page's reading left out (a display it took for a picture);
 * its column (left and right) comes with it, for the row beside the label to be read again.
 */
export function labelStrips(words: readonly OcrWord[]): LabelStrip[] {
  const { rows, em, frames } = pageColumns(words);
  if (frames.length === 0) return [];
  const text = unionOfBoxes(rows.map((r) => r.box));
  const out: LabelStrip[] = [];
  for (const f of frames) {
    // Past the words read, too: a display the reading dropped can open or close the page's text.
    const height = { bottom: text.bottom - O.stripBeyondEm * em, top: text.top + O.stripBeyondEm * em };
    // Never past the middle of a gutter: read together, a label and the next column's words level
    // with it (a numbered item opening a line there) come back as one mangled line, or not at all.
    const next = Math.min(...frames.filter((g) => g.left >= f.right).map((g) => (f.right + g.left) / 2));
    const previous = Math.max(...frames.filter((g) => g.right <= f.left).map((g) => (g.right + f.left) / 2));
    out.push({
      side: "right",
      box: {
        left: f.right - O.stripInsideEm * em,
        right: Math.min(f.right + O.stripOutsideEm * em, next),
        ...height,
      },
      column: f,
    });
    out.push({
      side: "left",
      box: {
        left: Math.max(f.left - O.stripOutsideEm * em, previous),
        right: f.left + O.stripInsideEm * em,
        ...height,
      },
      column: f,
    });
  }
  return out;
}

/** Whether a word of the reading is label-like: `(3)`, `(4.2b)`, with punctuation after it. */
export function isLabelLikeWord(text: string): boolean {
  const m = LABEL_LIKE.exec(text);
  return m !== null && isEquationLabel(m[1]);
}

/** The page's running text: its top and line height (undefined on a page without running text). */
export function ocrTextBlock(words: readonly OcrWord[]): OcrTextBlock | undefined {
  const rows = rowsOf(words);
  const em = median(rows.map((r) => r.box.top - r.box.bottom).filter((h) => h > 0));
  if (!(em > 0)) return undefined;
  const running = rows.filter((r) => isRunningRow(r, em));
  if (running.length === 0) return undefined;
  return { top: Math.max(...running.map((r) => r.box.top)), em };
}

/** The columns a page's own running text shows (none when too few of its lines share an edge). */
export function ocrPageColumns(words: readonly OcrWord[]): Frame[] {
  return pageColumns(words).frames;
}

/** A page's rows, their line height and the columns its running text shows. */
function pageColumns(words: readonly OcrWord[]): { rows: Row[]; em: number; frames: Frame[] } {
  const rows = rowsOf(words);
  const em = median(rows.map((r) => r.box.top - r.box.bottom).filter((h) => h > 0));
  if (!(em > 0)) return { rows, em, frames: [] };
  return {
    rows,
    em,
    frames: framesOf(
      rows.filter((r) => isRunningRow(r, em)),
      em,
    ),
  };
}

/**
 * The document's columns: those that two pages or more show, each edge within a line's height (taken
 * as 12 pt: a page alone, or one laid out its own way, says nothing).
 */
export function documentColumns(pages: readonly (readonly Frame[])[]): Frame[] {
  const out: Frame[] = [];
  const near = (a: Frame, b: Frame) => Math.abs(a.left - b.left) <= 12 && Math.abs(a.right - b.right) <= 12;
  pages.forEach((frames, i) => {
    for (const f of frames) {
      if (out.some((o) => near(o, f))) continue;
      if (pages.some((other, j) => j !== i && other.some((g) => near(f, g)))) out.push(f);
    }
  });
  return out;
}

/**
 * The top of a document's text block from its pages' running text: the highest top that another
 * page's running text reaches within a line's height (one page alone, or a page whose first line is a
 * running head the others lack, says nothing).
 */
export function documentBlockTop(blocks: readonly (OcrTextBlock | undefined)[]): number | undefined {
  const known = blocks.filter((b): b is OcrTextBlock => b !== undefined).sort((a, b) => b.top - a.top);
  for (let i = 0; i + 1 < known.length; i++)
    if (known[i].top - known[i + 1].top <= Math.min(known[i].em, known[i + 1].em)) return known[i].top;
  return undefined;
}

/**
 * The label spots and label-like sightings of one page's OCR reading. Left-side labels are found
 * by the same rules on the page mirrored.
 */
export function ocrPageLabels(words: readonly OcrWord[], context: OcrPageContext = {}): OcrPageLabels {
  const right = rightSideLabels(words, "right", context);
  const mirrored = mirrorWords(words);
  const left = rightSideLabels(mirrored, "left", context);
  const spots = [...right.spots, ...left.spots.map(unmirrorSpot)];
  const taken = (box: Box) =>
    spots.some(
      (s) =>
        box.left >= s.labelBox.left - 0.5 &&
        box.right <= s.labelBox.right + 0.5 &&
        overlapsVertically(box, s.labelBox, 0),
    );
  const reasonsAt = new Map<OcrWord, RejectionReason[]>();
  for (const [w, reasons] of right.reasons) reasonsAt.set(w, reasons);
  mirrored.forEach((m, i) => {
    const reasons = left.reasons.get(m);
    if (reasons && !reasonsAt.has(words[i])) reasonsAt.set(words[i], reasons);
  });
  const sightings: OcrLabelSighting[] = [];
  for (const w of words) {
    const m = LABEL_LIKE.exec(w.text);
    if (!m || !isEquationLabel(m[1]) || taken(w.box)) continue;
    sightings.push({
      label: m[1],
      printed: w.text,
      labelBox: w.box,
      reasons: reasonsAt.get(w) ?? ["no-display"],
    });
  }
  return { spots, sightings, mathBandsToRead: [...right.mathBands, ...left.mathBands.map(mirrorBox)] };
}

function unmirrorSpot(s: OcrLabelSpot): OcrLabelSpot {
  return {
    ...s,
    labelBox: mirrorBox(s.labelBox),
    equationBox: mirrorBox(s.equationBox),
    cropBoxes: s.cropBoxes.map(mirrorBox),
  };
}

function rightSideLabels(
  words: readonly OcrWord[],
  side: OcrLabelSide,
  context: OcrPageContext,
): { spots: OcrLabelSpot[]; reasons: Map<OcrWord, RejectionReason[]>; mathBands: Box[] } {
  const reasons = new Map<OcrWord, RejectionReason[]>();
  const bands: Box[] = [];
  const columns = (context.columns ?? []).map((f) =>
    side === "left" ? { left: -f.right, right: -f.left } : f,
  );
  const rows = rowsOf(words, columns);
  const runningHeights = rows.map((r) => r.box.top - r.box.bottom);
  const em = median(runningHeights.filter((h) => h > 0));
  if (!(em > 0)) return { spots: [], reasons, mathBands: bands };
  const running = rows.filter((r) => isRunningRow(r, em));
  let frames = framesOf(running, em);
  if (frames.length === 0 && running.length > 0 && columns.length > 0)
    frames = columns.map((f) => ({ ...f }));
  if (frames.length === 0) return { spots: [], reasons, mathBands: bands };
  const block = unionOfBoxes(running.map((r) => r.box));
  const spots = mergeSpots(
    rows.flatMap((row) => rowSpot(row, frames, em) ?? []),
    words,
    em,
  );
  const spotWords = new Set(spots.flatMap((s) => s.words));
  const accepted: OcrLabelSpot[] = [];
  const head = headBound(block, rows, context, em);
  const mathBands = (context.mathBands ?? []).map((b) => (side === "left" ? mirrorBox(b) : b));
  for (const spot of spots) {
    const frame = frames.find(
      (f) => spot.box.left > f.left && spot.box.right < f.right + O.spotOutsideEm * em,
    ) as Frame;
    const measured = measureSpot(spot, side, frame, head, rows, spotWords, em, mathBands);
    const judged = { reasons: decideEquation(measured.features).reasons, content: measured.content };
    if (judged.reasons.length === 0) {
      accepted.push({
        side,
        printed: spot.words.map((w) => w.text).join(" "),
        labelBox: spot.box,
        equationBox: judged.content,
        cropBoxes: cropsOf(spot, judged.content, words, em),
      });
    } else {
      for (const w of spot.words) reasons.set(w, judged.reasons);
      if (judged.reasons.length === 1 && judged.reasons[0] === "no-math")
        bands.push(mathBandOf(spot.box, judged.content, em));
    }
  }
  return { spots: accepted, reasons, mathBands: bands };
}

/** The group of words ending a row, when it stands at a column's right edge, short, past a wide gap. */
function rowSpot(row: Row, frames: readonly Frame[], em: number): Spot | undefined {
  const ws = row.words;
  let start = ws.length - 1;
  while (start > 0 && ws[start].box.left - ws[start - 1].box.right < O.spotWordGapEm * em) start--;
  let group = ws.slice(start);
  let box = unionOfBoxes(group.map((w) => w.box));
  // A label read whole ending the row stands alone: the words close before it are a display's that
  // fills its line (amsmath sets a tag half a quad from one), not pieces of the label.
  const end = ws[ws.length - 1];
  if (
    group.length > 1 &&
    LABEL_LIKE.test(end.text) &&
    end.box.left - ws[ws.length - 2].box.right >= O.minFilledGapEm * em
  ) {
    group = [end];
    box = end.box;
  }
  const short =
    box.right - box.left <= O.spotWidthEm * em &&
    group.reduce((n, w) => n + w.text.length, 0) <= O.spotLetters;
  if (!short || (start > 0 && box.left - ws[start - 1].box.right < O.minGapEm * em)) {
    // A display that fills its line leaves its label less room: the last word alone, read as a label.
    const last = ws[ws.length - 1];
    if (ws.length < 2 || !(LABEL_LIKE.test(last.text) || RING_READING.test(last.text))) return undefined;
    if (last.box.left - ws[ws.length - 2].box.right < O.minFilledGapEm * em) return undefined;
    group = [last];
    box = last.box;
  }
  const atEdge = frames.some(
    (f) =>
      box.left > f.left + O.spotInsetEm * em &&
      box.right > f.right - O.spotEdgeEm * em &&
      box.right < f.right + O.spotOutsideEm * em,
  );
  return atEdge ? { words: group, box, row } : undefined;
}

/**
 * Spots that overlap or touch on the page, within one line's height, are one label read as two (a
 * split `(2)`, a `3.4b` with its brackets put on another line); a bracket touching a spot is its own.
 */
function mergeSpots(spots: Spot[], words: readonly OcrWord[], em: number): Spot[] {
  const sorted = [...spots].sort((a, b) => b.box.top - a.box.top);
  const out: Spot[] = [];
  const touch = O.spotTouchEm * em;
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (
      last &&
      s.box.top > last.box.bottom &&
      s.box.left < last.box.right + touch &&
      last.box.left < s.box.right + touch &&
      Math.max(last.box.top, s.box.top) - Math.min(last.box.bottom, s.box.bottom) < O.spotMergeHeightEm * em
    ) {
      const words = [...last.words, ...s.words];
      out[out.length - 1] = { words, box: unionOfBoxes(words.map((w) => w.box)), row: last.row };
    } else out.push(s);
  }
  return out.map((spot) => {
    const brackets = words.filter(
      (w) =>
        !spot.words.includes(w) &&
        overlapsVertically(w.box, spot.box, -0.25 * em) &&
        ((/^[([{]$/.test(w.text) && w.box.right <= spot.box.left && spot.box.left - w.box.right < touch) ||
          (/^[)\]}]$/.test(w.text) && w.box.left >= spot.box.right && w.box.left - spot.box.right < touch)),
    );
    if (brackets.length === 0) return spot;
    const all = [...spot.words, ...brackets];
    return { words: all, box: unionOfBoxes(all.map((w) => w.box)), row: spot.row };
  });
}

/**
 * How high a label may stand: a display may end a page, below the last line of running text, but
 * never opens one above the text block: typesetters do not break a page just before a display (TeX's
 * \predisplaypenalty), so a line of the paragraph stands above it, or the display opens the page's
 * body at the document's text block top. That top is known from other pages' running text, or from
 * this page's rows: those that stand above its running text in a chain, each within a display's
 * spacing of the one below (`bodyTop`). Far above either is a running head.
 */
function headBound(block: Box, rows: readonly Row[], context: OcrPageContext, em: number): number {
  const own = Math.max(block.top + O.headAboveEm * em, bodyTop(block, rows, em));
  return context.blockTop === undefined ? own : Math.max(own, context.blockTop + em);
}

/** The top of the rows above the running text's top that each stand within the display chain gap (settings) of the rows below. */
function bodyTop(block: Box, rows: readonly Row[], em: number): number {
  let top = block.top;
  const above = rows
    .filter((r) => r.box.top > block.top && r.box.right > block.left && r.box.left < block.right)
    .sort((a, b) => a.box.bottom - b.box.bottom);
  for (const r of above) {
    if (r.box.bottom - top > O.displayChainGapEm * em) break;
    top = Math.max(top, r.box.top);
  }
  return top;
}

/**
 * The band a finer reading looks for a display's mathematics in: from a quad left of the display's row
 * to the label (the label itself left out), a line and a half above and below it (a fraction's
 * numerator and denominator, a big operator's limits).
 */
function mathBandOf(label: Box, content: Box, em: number): Box {
  return {
    left: Math.min(content.left, label.left) - em,
    right: label.left - 0.3 * em,
    bottom: label.bottom - 1.5 * em,
    top: label.top + 1.5 * em,
  };
}

/** Whether a band read again beside this label found its display's mathematics. */
function mathReadBeside(label: Box, bands: readonly Box[]): boolean {
  const h = label.top - label.bottom;
  return bands.some(
    (b) =>
      b.right <= label.left && b.right > label.left - 2 * h && b.bottom < label.bottom && b.top > label.top,
  );
}

/**
 * Whether a region's words, read again, show mathematics: an operator, relation or Greek letter, a
 * sign taller than the words around it, or a fraction's stacked groups; hardly a word of prose.
 */
export function readsAsMathematics(words: readonly OcrWord[]): boolean {
  if (words.length === 0) return false;
  const em = median(words.map((w) => w.box.top - w.box.bottom).filter((h) => h > 0));
  if (!(em > 0)) return false;
  const prose = words.filter((w) => w.text.length >= 4 && isProseWord(w.text)).length;
  if (prose > 1) return false;
  return (
    MATH_SIGN.test(words.map((w) => w.text).join(" ")) ||
    hasTallSymbol(words, em) ||
    hasFractionStack(words, em)
  );
}

/**
 * A spot's features (equation-features.ts), measured from the reading's word boxes for the decision's
 * table (equation-decision.ts): the same predicates the text layer's candidates are decided by.
 * What word boxes cannot show is left unknown (fonts, graphics objects); the features only an OCR
 * reading measures (`crowded`, `proseRow`, `fillsColumn`) stand in for what the text layer tells by
 * fonts.
 */
function measureSpot(
  spot: Spot,
  side: OcrLabelSide,
  frame: Frame,
  head: number,
  rows: readonly Row[],
  spotWords: ReadonlySet<OcrWord>,
  em: number,
  mathBands: readonly Box[],
): { features: EquationFeatures; content: Box } {
  const beside = rows.filter((r) => overlapsVertically(r.box, spot.box, -O.besideSlackEm * em));
  const inColumn = (w: OcrWord) =>
    !spotWords.has(w) && w.box.right <= spot.box.left && w.box.left >= frame.left - em;
  let content = beside.flatMap((r) => r.words).filter(inColumn);
  // A label alone on its line (beside it at most a stray sub- or superscript) belongs to a display too
  // long for its line, which need not be set apart, as it fills the column: a right-side label closes
  // the display above it, a left-side one (set above, as amsmath's leqno does) opens the display below.
  let fillsLine = false;
  let closesBlock = false;
  if (content.every((w) => w.text.length <= O.strayScriptLetters)) {
    const gap = (r: Row) => (side === "right" ? r.box.bottom - spot.box.top : spot.box.bottom - r.box.top);
    const next = rows
      .filter((r) => gap(r) >= -O.nextRowOverlapEm * em && gap(r) < O.nextRowEm * em)
      .filter((r) => !isRunningRow(r, em) && r.words.some(inColumn))
      .sort((a, b) => gap(a) - gap(b))[0];
    if (next) {
      const row = next.words.filter(inColumn);
      content = [...content, ...row];
      closesBlock = true;
      fillsLine = Math.min(...row.map((w) => w.box.left)) < frame.left + O.marginStartEm * em;
    }
  }
  const middle = (spot.box.bottom + spot.box.top) / 2;
  const after = (w: OcrWord) =>
    w.box.left >= spot.box.right && w.box.left < spot.box.right + O.afterLabelEm * em;
  // Rows of this column pass the label's place; a row that starts past it stands in the next column.
  const passing = beside.filter((r) => r.box.left < spot.box.left);
  const features: EquationFeatures = {
    emPt: em,
    // Spots are looked for at the edges of the page's columns only (rowSpot).
    inColumn: true,
    columnBeside: false,
    inPageMargin: middle > head,
    // OCR reads a superscript as part of its base's word (`w(2)`); a spot is a word of its own past a
    // gap of half a quad at the least (rowSpot).
    superscript: false,
    // A naming word before the label is content here; the label is what its crops read.
    named: false,
    betweenRows: false,
    atRightEdge: side === "right",
    atLeftEdge: side === "left",
    afterTab: false,
    side,
    // Punctuation joined to the label is read with it; its crops are read again for the label alone.
    textJoined: false,
    textAfter: passing.some((r) => r.words.some((w) => !spotWords.has(w) && after(w))),
    leftLabelClear: false,
    hasContent: content.length > 0,
    closesBlock,
    contentAfter: side === "left" && content.length > 0,
    mathChars: undefined,
    mathShare: undefined,
    fractionBars: 0,
    mathNearby: false,
    graphicsBeside: undefined,
    ...CONTENT_UNMEASURED,
  };
  if (content.length === 0) return { features, content: spot.box };
  const box = unionOfBoxes(content.map((w) => w.box));
  const gap = spot.box.left - box.right;
  // A display that fills its line, up to half a quad from its label: mathematics itself, hardly a word
  // of prose, and not a line of running text.
  const mathematics =
    MATH_SIGN.test(content.map((w) => w.text).join(" ")) &&
    content.filter((w) => w.text.length >= O.longWordLetters && isProseWord(w.text)).length <= 1 &&
    !beside.some((r) => isRunningRow(r, em) && r.box.left >= frame.left - em && r.box.left < spot.box.left);
  const filled = box.left < frame.left + O.marginStartEm * em && gap < O.filledReachEm * em && mathematics;
  const indent = box.left - frame.left;
  const centred = Math.abs((box.left + box.right) / 2 - (frame.left + frame.right) / 2) <= O.centredEm * em;
  // A centred display too wide to leave its label a quad, set in from the column's other edge: amsmath
  // brings such a display toward its tag, down to half a quad. Running text fills its line; an item's
  // text starts by its number and is not centred.
  const pressed = centred && indent >= O.indentEm * em && mathematics;
  const aligned = alignedRelation(content, beside, rows, frame, em);
  // The display's rows near the label (a fraction's numerator and denominator, an aligned row) count
  // for its mathematics; rows of running text do not.
  const near = rows
    .filter((r) => !isRunningRow(r, em) && overlapsVertically(r.box, spot.box, O.nextRowEm * em))
    .flatMap((r) => r.words)
    .filter(
      (w) =>
        !spotWords.has(w) && w.box.right <= spot.box.left && w.box.left >= box.left - O.nearRowsReachEm * em,
    );
  const math = [...content, ...near];
  const mathText = math.map((w) => w.text).join(" ");
  const signs = [...mathText].filter((c) => MATH_SIGN.test(c)).length;
  const prose = content.filter((w) => w.text.length >= O.longWordLetters && isProseWord(w.text)).length;
  features.gapPt = gap;
  features.crowded = gap < O.minFilledGapEm * em || (gap < O.minGapEm * em && !filled && !pressed);
  features.mathChars = signs;
  features.mathShare = mathText.length > 0 ? signs / mathText.replace(/\s/g, "").length : 0;
  features.fractionBars = hasFractionStack(math, em) ? 1 : 0;
  features.mathNearby = hasTallSymbol(math, em) || mathReadBeside(spot.box, mathBands);
  features.fillsColumn = fillsLine || filled;
  features.alignedRow = aligned ? 1 : 0;
  features.displayRow = aligned;
  features.setApart = indent >= O.indentEm * em || (centred && indent >= em);
  features.proseRow =
    (prose >= O.proseWordsLeast && prose >= O.proseWordsShare * content.length) ||
    (prose >= O.sentenceLongWords &&
      content.filter((w) => isProseWord(w.text)).length >= O.proseWordsLeast &&
      proseShare(content) >= O.proseCharacterShare);
  features.tabular = isTabular(box, frame, rows, spotWords, em);
  return { features, content: box };
}

/**
 * A sign taller than a line and half again as tall as the words around it: a big operator (an
 * integral OCR reads as `/` or `J`), a radical or a bracket; never a word of prose.
 */
function hasTallSymbol(words: readonly OcrWord[], em: number): boolean {
  const typical = median(words.map((w) => w.box.top - w.box.bottom));
  return words.some((w) => {
    const height = w.box.top - w.box.bottom;
    return height >= O.tallSignEm * em && height >= O.tallSignShare * typical && !isProseWord(w.text);
  });
}

/** Where a row's first relation sign stands (`=` read alone or opening a word), if it has one. */
function relationAt(words: readonly OcrWord[]): number | undefined {
  return words.find((w) => RELATION_START.test(w.text))?.box.left;
}

/**
 * Whether the content's first relation sign stands where that of a row of mathematics within two
 * and a half lines above or below stands, to a third of an em: the rows of an aligned display
 * (align, eqnarray), set wherever the alignment puts them, neither centred nor indented.
 */
function alignedRelation(
  content: readonly OcrWord[],
  beside: readonly Row[],
  rows: readonly Row[],
  frame: Frame,
  em: number,
): boolean {
  const own = relationAt(content);
  if (own === undefined) return false;
  const top = Math.max(...content.map((w) => w.box.top));
  const bottom = Math.min(...content.map((w) => w.box.bottom));
  return rows.some((r) => {
    if (beside.includes(r) || isRunningRow(r, em)) return false;
    if (r.box.bottom > top + O.alignedReachEm * em || r.box.top < bottom - O.alignedReachEm * em)
      return false;
    const x = relationAt(r.words.filter((w) => w.box.left >= frame.left - em && w.box.right <= frame.right));
    return x !== undefined && Math.abs(x - own) <= O.alignedSignEm * em;
  });
}

/**
 * A fraction as OCR reads one whose bar it drops or misreads: a group of words centred over
 * another, close under it, narrower or wider by a quarter at least, neither a long word of prose
 * nor wider than 8 em (a group: a row's words a word space apart). Lines of prose stand a line
 * apart and fill their width; a title over its author holds words of prose.
 */
function hasFractionStack(words: readonly OcrWord[], em: number): boolean {
  const byLine = new Map<number, OcrWord[]>();
  for (const w of words) {
    const line = byLine.get(w.line);
    if (line) line.push(w);
    else byLine.set(w.line, [w]);
  }
  const groups: Box[] = [];
  for (const line of byLine.values()) {
    line.sort((a, b) => a.box.left - b.box.left);
    let group: OcrWord[] = [];
    const close = () => {
      if (group.length > 0 && !group.some((w) => w.text.length >= 4 && isProseWord(w.text)))
        groups.push(unionOfBoxes(group.map((w) => w.box)));
      group = [];
    };
    for (const w of line) {
      const last = group[group.length - 1];
      if (last && w.box.left - last.box.right >= O.fractionGroupGapEm * em) close();
      group.push(w);
    }
    close();
  }
  const width = (b: Box) => b.right - b.left;
  return groups.some((upper) =>
    groups.some((lower) => {
      if (upper === lower) return false;
      const gap = upper.bottom - lower.top;
      if (
        gap < -O.fractionOverlapEm * em ||
        gap > O.fractionGapEm * em ||
        (upper.bottom + upper.top) / 2 <= (lower.bottom + lower.top) / 2
      )
        return false;
      const wider = Math.max(width(upper), width(lower));
      const centres = Math.abs((upper.left + upper.right) / 2 - (lower.left + lower.right) / 2);
      return (
        wider <= O.fractionWidthEm * em &&
        Math.min(width(upper), width(lower)) <= O.fractionNarrowerShare * wider &&
        centres <= Math.max(1, O.fractionCentredShare * wider)
      );
    }),
  );
}

/**
 * Rows of the label's column at and around the content split into three or more cells by wide gaps,
 * twice or more: a table (another column's table beside a display is not this one's). The pieces of
 * one display that OCR reads as rows of their own (a sum's limits, a fraction's parts) are no rows of
 * a table: rows of script-size words touching a taller row are left out, and rows that overlap are
 * taken as one line, cut only where none of them has a word.
 */
function isTabular(
  content: Box,
  frame: Frame,
  rows: readonly Row[],
  spotWords: ReadonlySet<OcrWord>,
  em: number,
): boolean {
  const near = rows.filter(
    (r) =>
      r.box.top > content.bottom - O.tableReachEm * em && r.box.bottom < content.top + O.tableReachEm * em,
  );
  const lines = linesOf(
    near.filter((r) => !near.some((o) => o !== r && isScriptOf(r, o, em))),
    em,
  );
  let celled = 0;
  for (const words of lines) {
    const ws = words
      .filter(
        (w) =>
          !spotWords.has(w) &&
          w.box.left >= frame.left - em &&
          w.box.right <= frame.right + O.spotOutsideEm * em,
      )
      .sort((a, b) => a.box.left - b.box.left);
    let gaps = 0;
    let reach = ws[0]?.box.right ?? 0;
    for (const w of ws.slice(1)) {
      if (w.box.left - reach >= O.tableCellGapEm * em) gaps++;
      reach = Math.max(reach, w.box.right);
    }
    if (gaps >= 2) celled++;
  }
  return celled >= 2;
}

/**
 * Whether row `r` holds scripts of row `o` (a sum's limits, indices): it touches `o` and is of
 * script size, either beside a row of text-size words or at most 0.6 of `o`'s height (scriptstyle
 * is 0.7 of the text size; a table's rows, words of one size, stand a line apart).
 */
function isScriptOf(r: Row, o: Row, em: number): boolean {
  const gap = Math.max(r.box.bottom - o.box.top, o.box.bottom - r.box.top);
  const height = (b: Box) => b.top - b.bottom;
  const small =
    gap < O.scriptTouchEm * em &&
    r.words.every((w) => height(w.box) < O.scriptHeightEm * em) &&
    o.words.some((w) => height(w.box) >= O.scriptHeightEm * em);
  const under =
    gap < O.scriptNearEm * em &&
    height(r.box) <= 0.6 * height(o.box) &&
    r.box.left >= o.box.left - em &&
    r.box.right <= o.box.right + em;
  return small || under;
}

/** Rows joined where they overlap by more than OCR's slack: the words of each line. */
function linesOf(rows: readonly Row[], em: number): OcrWord[][] {
  const sorted = [...rows].sort((a, b) => b.box.top - a.box.top);
  const lines: { box: Box; words: OcrWord[] }[] = [];
  for (const r of sorted) {
    const line = lines.find(
      (l) => Math.min(l.box.top, r.box.top) - Math.max(l.box.bottom, r.box.bottom) >= O.interleavedEm * em,
    );
    if (line) {
      line.words.push(...r.words);
      line.box = unionOfBoxes([line.box, r.box]);
    } else lines.push({ box: r.box, words: [...r.words] });
  }
  return lines.map((l) => l.words);
}

/**
 * Crops of the spot from tight to wide: past the label by part of an em, never reaching the
 * content beside it nor more than halfway to the words above or below.
 */
function cropsOf(spot: Spot, content: Box, words: readonly OcrWord[], em: number): Box[] {
  const b = spot.box;
  let ceiling = Number.POSITIVE_INFINITY;
  let floor = Number.NEGATIVE_INFINITY;
  // Other spots' labels bound a crop too: stacked labels stand a line apart.
  const own = new Set(spot.words);
  for (const w of words) {
    if (own.has(w) || w.box.right < b.left - em || w.box.left > b.right + em) continue;
    if (w.box.bottom >= b.top) ceiling = Math.min(ceiling, (w.box.bottom + b.top) / 2);
    else if (w.box.top <= b.bottom) floor = Math.max(floor, (w.box.top + b.bottom) / 2);
  }
  // A bracket the page's reading dropped (`9)` for `(9)`) stands past the words read: reach it.
  const text = spot.words.map((w) => w.text).join("");
  const open = /^[([{]/.test(text) ? 0 : O.droppedBracketEm * em;
  const close = /[)\]}][.,;:]?$/.test(text) ? 0 : O.droppedBracketEm * em;
  const crop = (pad: number): Box => ({
    left: Math.max(b.left - pad - open, (content.right + b.left) / 2),
    right: b.right + pad + close,
    bottom: Math.max(b.bottom - pad, floor),
    top: Math.min(b.top + pad, ceiling),
  });
  return O.cropPadsEm.map((pad) => crop(pad * em));
}
