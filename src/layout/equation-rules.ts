/**
 * The tests behind the rejection reasons that look beyond the label's own line: the text block, the
 * mathematics around the label, a table's rules and cells, and graphics against the label.
 */
import type { Box, GraphicObject, PageText } from "../document/model.js";
import type { CharRange, Span } from "./char-spans.js";
import { type BandIndex, MATH_FONT, type PageChars } from "./page-chars.js";
import { EQUATION_SETTINGS as S } from "./settings.js";
import type { DocumentFrames, Frame } from "./text-frames.js";

/** Thickest path still read as a rule (booktabs' heavy rules are 1.75 pt tall as drawn). */
export const RULE = 2.5;

/**
 * In the page margin: beside the text block, or above or below it and cut off from it by empty
 * space (a running head or foot), as opposed to a display that reaches a little lower than the
 * body text of other pages.
 */
export function outsideTextBlock(
  box: Box,
  frames: DocumentFrames,
  page: number,
  em: number,
  chars: PageChars,
  index: BandIndex,
  label: CharRange,
  /** A frame read for this label alone (the text block's mirrored edge), when no column holds it. */
  extra?: Box,
): boolean {
  const local = frames.pageFrames[page - 1] ?? [];
  const blocks = [...(frames.textBlock ? [frames.textBlock] : []), ...local, ...(extra ? [extra] : [])];
  if (blocks.length === 0) return false;
  const within = (b: Box) => box.left >= b.left - em && box.right <= b.right + em;
  const across = blocks.filter(within);
  if (across.length === 0) return true;
  for (const b of across) {
    if (box.bottom >= b.bottom - em * S.blockReachEm && box.top <= b.top + em * S.blockReachEm) return false;
  }
  // Above or below every block: a margin only when the token is alone on its row and empty space
  // parts it from the page's content (a page number, a running head), not a display's label.
  const left = Math.min(...across.map((b) => b.left));
  const right = Math.max(...across.map((b) => b.right));
  const h = box.top - box.bottom;
  const onRow = index.scan(box.bottom + h * S.labelCoreShare, box.top - h * S.labelCoreShare);
  for (let j = 0; j < onRow; j++) {
    const k = index.hits[j];
    if ((k < label.first || k > label.last) && chars.x1[k] >= left && chars.x0[k] <= right) return false;
  }
  const below = across.every((b) => box.top < b.bottom);
  const [lo, hi] = below
    ? [box.top, box.top + em * S.blockReachEm]
    : [box.bottom - em * S.blockReachEm, box.bottom];
  const beside = index.scan(lo, hi);
  for (let j = 0; j < beside; j++) {
    const k = index.hits[j];
    if ((k >= label.first && k <= label.last) || chars.x1[k] < left || chars.x0[k] > right) continue;
    const mid = (chars.y0[k] + chars.y1[k]) / 2;
    if (below ? mid > box.top : mid < box.bottom) return false;
  }
  return true;
}

export function mathShare(chars: PageChars, members: number[]): { count: number; share: number } {
  let count = 0;
  for (let j = 0; j < members.length; j++) if (chars.math[members[j]] !== 0) count++;
  return { count, share: members.length > 0 ? count / members.length : 0 };
}

/** Math-font characters just above or below the label's row, between the content and the label. */
export function mathAround(
  chars: PageChars,
  index: BandIndex,
  box: Box,
  em: number,
  span: Span | undefined,
  label: CharRange,
): boolean {
  if (!span) return false;
  const lo = box.bottom - em * S.nextRowEm;
  const hi = box.top + em * S.nextRowEm;
  const found = index.scan(lo, hi);
  const hits = index.hits;
  for (let j = 0; j < found; j++) {
    const k = hits[j];
    if (k >= label.first && k <= label.last) continue;
    if (chars.x1[k] < span.x0 - 1 || chars.x0[k] > span.x1 + 1) continue;
    if (chars.math[k] & MATH_FONT) return true;
  }
  return false;
}

/** Thin horizontal paths beside the label and over the content: fraction and radical bars. */
export function fractionBars(
  graphics: GraphicObject[],
  box: Box,
  span: Span,
  em: number,
  frame: Frame | undefined,
): Box[] {
  const out: Box[] = [];
  const maxWidth = frame ? (frame.right - frame.left) * S.barMaxShare : em * S.barMaxEm;
  for (let i = 0; i < graphics.length; i++) {
    const g = graphics[i];
    if (g.kind !== "path") continue;
    const b = g.box;
    const w = b.right - b.left;
    const hgt = b.top - b.bottom;
    if (hgt > S.barThickPt || w < em * S.barMinEm || w > maxWidth) continue;
    // A rule that runs on under the label is a table's ruling, not a fraction bar.
    if (b.right > box.left - 1) continue;
    if (b.top < box.bottom - em * S.barReachEm || b.bottom > box.top + em * S.barReachEm) continue;
    // Over the content, or just past it (a fraction ending the display, its parts above and below
    // the label's line, none of its characters on it).
    if (b.right < span.x0 - 1 || b.left > span.x1 + em * S.barPastEm) continue;
    out.push(b);
  }
  return out;
}

/**
 * A table row: the label lies between wide horizontal rules with no running text between them, or
 * the row is split into cells that stand on one baseline and line up with the row above or below,
 * and it is not mathematics. (Between the rows of a display, a label's row meets its denominators
 * and limits, which stand apart as cells do but each at its own height.)
 */
export function isTabular(
  text: PageText,
  chars: PageChars,
  index: BandIndex,
  box: Box,
  em: number,
  frame: Frame | undefined,
  content: number[],
  share: number,
  bodyLines: { box: Box }[],
): boolean {
  const width = frame ? frame.right - frame.left : text.width;
  // Wide horizontal rules over the label's reach, above and below it with no running text between.
  let ruledAbove = false;
  let ruledBelow = false;
  const graphics = text.graphics;
  for (let i = 0; i < graphics.length; i++) {
    const g = graphics[i];
    const r = g.box;
    const rule =
      g.kind === "path" &&
      r.top - r.bottom <= RULE &&
      r.right - r.left >= width * 0.3 &&
      r.left <= box.right &&
      r.right >= box.left - em;
    const above = rule && r.bottom >= box.top - 0.5 && r.bottom - box.top <= em * 25;
    const below = rule && r.top <= box.bottom + 0.5 && box.bottom - r.top <= em * 25;
    ruledAbove ||= above && !bodyBetween(bodyLines, box, width, box.top, r.bottom);
    ruledBelow ||= below && !bodyBetween(bodyLines, box, width, r.top, box.bottom);
  }
  if (ruledAbove && ruledBelow) return true;
  if (share >= 0.3 || content.length === 0) return false;
  const all = rowGaps(chars, content, em);
  const gaps = all.filter((g) => g[1] < box.left - em);
  if (gaps.length < 2 || !cellsOnOneBaseline(chars, content, all, em)) return false;
  // A neighbouring row with the same gaps: columns of a table.
  for (const dir of [1, -1] as const) {
    const neighbour = neighbourRow(chars, index, content, em, dir, frame);
    if (neighbour.length === 0) continue;
    const theirs = rowGaps(chars, neighbour, em);
    const shared = gaps.filter(([a, b]) =>
      theirs.some(([c, d]) => Math.min(b, d) - Math.max(a, c) >= em * 0.5),
    );
    if (shared.length >= 2) return true;
  }
  return false;
}

/**
 * Whether the parts of a row between its gaps stand on one baseline: each part's baseline is its
 * largest character's (a cell's superscript does not move it).
 */
function cellsOnOneBaseline(
  chars: PageChars,
  members: number[],
  gaps: [number, number][],
  em: number,
): boolean {
  const size: number[] = new Array(gaps.length + 1).fill(-1);
  const base: number[] = new Array(gaps.length + 1).fill(0);
  for (const k of members) {
    let cell = 0;
    while (cell < gaps.length && gaps[cell][1] <= chars.x0[k]) cell++;
    if (chars.size[k] > size[cell]) {
      size[cell] = chars.size[k];
      base[cell] = chars.base[k];
    }
  }
  const baselines = base.filter((_, i) => size[i] >= 0);
  return Math.max(...baselines) - Math.min(...baselines) <= em * 0.25;
}

/** Whether a body line lies between heights lo and hi, across the label's reach. */
function bodyBetween(bodyLines: { box: Box }[], box: Box, width: number, lo: number, hi: number): boolean {
  for (let i = 0; i < bodyLines.length; i++) {
    const l = bodyLines[i].box;
    if (l.bottom > lo && l.top < hi && l.right > box.left - width && l.left < box.right) return true;
  }
  return false;
}

export function rowGaps(chars: PageChars, members: number[], em: number): [number, number][] {
  const { x0, x1 } = chars;
  // Characters in text order usually run left to right along a row: put in text order (a native
  // numeric sort), then sorted by x only when that is not enough.
  const sorted = Int32Array.from(members).sort();
  for (let i = 1; i < sorted.length; i++) {
    if (x0[sorted[i]] < x0[sorted[i - 1]]) {
      sorted.sort((a, b) => x0[a] - x0[b]);
      break;
    }
  }
  if (gapFrom.length < sorted.length) {
    gapFrom = new Float64Array(sorted.length * 2);
    gapTo = new Float64Array(sorted.length * 2);
  }
  // Every character writes a gap and counts it only when it is one: wide gaps are rare, and code
  // that runs only now and then makes V8 throw away the optimized code around it.
  let count = 0;
  let reach = -Infinity;
  for (let i = 0; i < sorted.length; i++) {
    const k = sorted[i];
    const x = x0[k];
    gapFrom[count] = reach;
    gapTo[count] = x;
    count += reach !== -Infinity && x - reach >= em * 1.2 ? 1 : 0;
    reach = Math.max(reach, x1[k]);
  }
  // Array.from calls gapAt, which is not inlined here, so this code sees no rare branch of its own.
  return Array.from({ length: count }, gapAt);
}

let gapFrom = new Float64Array(4096);
let gapTo = new Float64Array(4096);
const gapAt = (_: unknown, i: number): [number, number] => [gapFrom[i], gapTo[i]];

export function neighbourRow(
  chars: PageChars,
  index: BandIndex,
  row: number[],
  em: number,
  dir: 1 | -1,
  frame: Frame | undefined,
): number[] {
  const base = chars.base[row[0]];
  const near = index
    .band(base - em * 3.5, base + em * 3.5)
    .filter((k) => !frame || (chars.x0[k] >= frame.left - em && chars.x1[k] <= frame.right + em));
  let nearest: number | undefined;
  for (const k of near) {
    const d = (chars.base[k] - base) * dir;
    if (d < em * 0.6 || d > em * 2.5) continue;
    if (nearest === undefined || d < (nearest - base) * dir) nearest = chars.base[k];
  }
  if (nearest === undefined) return [];
  const target = nearest;
  return near.filter((k) => Math.abs(chars.base[k] - target) <= em * 0.2);
}

/** An image against the label, or a drawn shape cutting through it (not a rule or a frame around it). */
export function graphicsBeside(graphics: GraphicObject[], box: Box, em: number): boolean {
  const pad = em * S.graphicsPadEm;
  for (let i = 0; i < graphics.length; i++) {
    const g = graphics[i];
    const b = g.box;
    // Worked out for every object, not only those that touch the label: see judge in equation-labels.
    const touches =
      b.left < box.right + pad &&
      b.right > box.left - pad &&
      b.bottom < box.top + pad &&
      b.top > box.bottom - pad;
    const image = g.kind === "image";
    const w = b.right - b.left;
    const h = b.top - b.bottom;
    const encloses =
      b.left <= box.left - pad &&
      b.right >= box.right + pad &&
      b.bottom <= box.bottom - pad &&
      b.top >= box.top + pad;
    // A shaded box the display is set on (a theorem box, a slide's block) holds the label whole,
    // however close to its edge the label stands.
    const background =
      w >= em * S.backgroundWidthEm &&
      b.left <= box.left &&
      b.right >= box.right &&
      b.bottom <= box.bottom &&
      b.top >= box.top;
    const verticalRule = w <= RULE && h > em * S.ruleLengthEm; // a vertical rule beside the column
    const horizontalRule = h <= RULE && w > em * S.ruleLengthEm;
    if (touches && (image || !(encloses || background || verticalRule || horizontalRule))) return true;
  }
  return false;
}

/** Words that name an equation label printed after them ("Equation (3)", "Eq. (3)"), in lower case. */
const LABEL_NAMES = new Set([
  "equation",
  "eq.",
  "eqn.",
  "eq",
  "eqn",
  "équation",
  "éq.",
  "gleichung",
  "ecuación",
]);

/**
 * The word just before the label in the text, when it names it ("Equation (3)") and stands on the
 * label's row just left of it: its left edge, or undefined.
 */
export function labelName(
  text: PageText,
  chars: PageChars,
  start: number,
  box: Box,
  em: number,
): { left: number } | undefined {
  const m = /(\S{2,10})[ \u00a0]$/.exec(text.text.slice(Math.max(0, start - 12), start));
  if (!m || !LABEL_NAMES.has(m[1].toLowerCase())) return undefined;
  let left = Infinity;
  for (let i = start - m[0].length; i < start - 1; i++) {
    const k = chars.indexOfOffset[i];
    if (k < 0) return undefined;
    if (
      chars.x1[k] > box.left + 0.5 ||
      Math.abs(chars.base[k] - chars.base[chars.indexOfOffset[start]]) > em * 0.2
    )
      return undefined;
    left = Math.min(left, chars.x0[k]);
  }
  return box.left - left <= em * 8 ? { left } : undefined;
}

/** Signs a continuation row of a display opens with. */
const RELATIONS = new Set([..."=≈∝≤≥<>≡∼~≃≅⇒⇔→↦+−×⩽⩾≪≫≠"].map((c) => c.codePointAt(0)));

/** Whether the leftmost character of the content is a relation or operator sign. */
export function opensWithRelation(text: PageText, chars: PageChars, content: number[]): boolean {
  let first = -1;
  for (const k of content) if (first < 0 || chars.x0[k] < chars.x0[first]) first = k;
  return first >= 0 && RELATIONS.has(text.text.codePointAt(chars.offset[first]) ?? 0);
}

/** How a row lines up with a neighbouring row of an aligned display (see alignedRow). */
export const NOT_ALIGNED = 0;
export const ALIGNED = 1;
export const ALIGNED_NUMBERED = 2;

/**
 * Whether the content's first relation sign stands where a relation sign of another row above or below
 * stands (within three lines; the same glyph's place, within a sixth of an em), a sixth or more of
 * that row being mathematics (a sans-serif slide's letters are not): a row of the same aligned
 * display, whose rows may each carry a left-hand side.
 * ALIGNED_NUMBERED when such a row ends, as this one does, in a label's ")" at the label's right
 * edge: a numbered row of the same display.
 */
export function alignedRow(
  text: PageText,
  chars: PageChars,
  index: BandIndex,
  content: number[],
  box: Box,
  em: number,
  xMin: number,
  xMax: number,
): number {
  let first = -1;
  for (const k of content)
    if (relation(text, chars, k) && (first < 0 || chars.x0[k] < chars.x0[first])) first = k;
  if (first < 0) return NOT_ALIGNED;
  const own = new Set(content);
  const tolerance = em / 6;
  let found = NOT_ALIGNED;
  for (const band of [
    index.band(box.top + em * 0.3, box.top + em * 3.5),
    index.band(box.bottom - em * 3.5, box.bottom - em * 0.3),
  ])
    for (const k of band) {
      if (own.has(k) || !relation(text, chars, k)) continue;
      if (
        Math.abs(chars.x0[k] - chars.x0[first]) > tolerance ||
        Math.abs(chars.x1[k] - chars.x1[first]) > tolerance
      )
        continue;
      const onRow = band.filter((o) => Math.abs(chars.base[o] - chars.base[k]) <= em * 0.3);
      const row = onRow.filter((o) => chars.x0[o] >= xMin && chars.x1[o] <= xMax);
      if (mathShare(chars, row).share < 0.15) continue;
      const numbered = onRow.some(
        (o) =>
          text.text[chars.offset[o]] === ")" && Math.abs(chars.x1[o] - box.right) <= Math.max(2, em * 0.5),
      );
      found = Math.max(found, numbered ? ALIGNED_NUMBERED : ALIGNED);
    }
  return found;
}

const relation = (text: PageText, chars: PageChars, k: number) =>
  RELATIONS.has(text.text.codePointAt(chars.offset[k]) ?? 0);

/**
 * Whether a row below the content (within three lines) opens with a relation sign standing right of
 * the content's start: the next line of an aligned display.
 */
export function continuedBelow(
  text: PageText,
  chars: PageChars,
  index: BandIndex,
  span: Span,
  box: Box,
  em: number,
  right: number,
): boolean {
  const found = index.band(box.bottom - em * 3.5, box.bottom - em * 0.3);
  for (const k of found) {
    if (chars.x0[k] < span.x0 || chars.x1[k] > right) continue;
    if (!RELATIONS.has(text.text.codePointAt(chars.offset[k]) ?? 0)) continue;
    const base = chars.base[k];
    const opens = !found.some(
      (o) =>
        o !== k &&
        Math.abs(chars.base[o] - base) <= em * 0.25 &&
        chars.x1[o] <= chars.x0[k] &&
        chars.x0[o] >= span.x0 - em * 4,
    );
    if (opens) return true;
  }
  return false;
}

/**
 * A frame of the page or the document wider than the label's own, that holds the content and whose
 * right edge the label stands at or within (a label after a tab); the one with most lines.
 */
export function widerFrame(
  frames: DocumentFrames,
  page: number,
  span: Span,
  box: Box,
  own: Frame,
  em: number,
): Frame | undefined {
  let best: Frame | undefined;
  for (const f of [...(frames.pageFrames[page - 1] ?? []), ...frames.docFrames]) {
    if (f.left >= own.left - em || f.lines <= own.lines) continue;
    if (f.left > span.x0 || f.right < box.right - em * S.edgeToleranceEm) continue;
    if (f.right - box.right > (f.right - f.left) * S.tabStopShare) continue;
    if (!best || f.lines > best.lines) best = f;
  }
  return best;
}

/**
 * Whether content is words: hardly any math characters, and most of the text from its first to its
 * last character made of words (letters, at least two, lowercase after the first).
 */
export function proseWords(text: PageText, chars: PageChars, content: number[], share: number): boolean {
  if (share >= 0.15 || content.length < 8) return false;
  let from = Infinity;
  let to = -Infinity;
  for (const k of content) {
    from = Math.min(from, chars.offset[k]);
    to = Math.max(to, chars.offset[k]);
  }
  const tokens = text.text
    .slice(from, to + 1)
    .split(/\s+/)
    .filter((t) => t.length > 0);
  const words = tokens.filter((t) => /^\p{L}\p{Ll}+[.,;:!?]?$/u.test(t));
  return tokens.length >= 3 && words.length >= tokens.length * 0.6;
}

/** Relation signs: a formula states one (operators such as + or − do not). */
const STRICT_RELATIONS = new Set([..."=≈∝≤≥<>≡∼≃≅⇒⇔→↦⩽⩾≪≫≠"].map((c) => c.codePointAt(0)));

/** Names of functions and operators set upright in formulas: words to the eye, not running text. */
const OPERATOR_NAMES = new Set(
  "arg cos cosh cot cov deg det diag dim exp gcd inf ker lim liminf limsup ln log max min mod sgn sin sinh sup tan tanh tr var".split(
    " ",
  ),
);

/**
 * Whether the content is a formula, not words: a relation sign set as mathematics with content on
 * both sides, no space of 0.8 em or more across the row's height (the gap between a table's cells;
 * a fraction's bar and parts, an integral's limits fill a display's spaces), no word of running
 * text (two letters or more of the label's size or larger on one baseline, lower case after the
 * first) other than an operator's name. A display row wide enough to fill its line (a gather row, a long display on a slide whose sans-serif letters are set
 * in no math font) is told from a line of running text so.
 */
export function formulaRow(
  text: PageText,
  chars: PageChars,
  index: BandIndex,
  content: number[],
  span: Span,
  bars: readonly Box[],
  em: number,
): boolean {
  // A relation sign other than the row's leftmost and rightmost characters (read left to right, the
  // first of equal lefts, the last of equal rights), found without sorting the row.
  let leftmost = 0;
  let rightmost = 0;
  for (let i = 1; i < content.length; i++) {
    if (chars.x0[content[i]] < chars.x0[content[leftmost]]) leftmost = i;
    if (chars.x0[content[i]] >= chars.x0[content[rightmost]]) rightmost = i;
  }
  let related = false;
  for (let i = 0; i < content.length && !related && content.length > 2; i++) {
    if (i === leftmost || i === rightmost) continue;
    const k = content[i];
    related = chars.math[k] !== 0 && STRICT_RELATIONS.has(text.text.codePointAt(chars.offset[k]) ?? 0);
  }
  if (!related) return false;
  // The row's whole height (a fraction's parts, an integral's limits) and its bars fill its spaces.
  const parts: [number, number][] = bars.map((b) => [b.left, b.right]);
  for (const k of index.band(span.y0, span.y1))
    if (chars.x1[k] > span.x0 && chars.x0[k] < span.x1) parts.push([chars.x0[k], chars.x1[k]]);
  for (const k of content) parts.push([chars.x0[k], chars.x1[k]]);
  parts.sort((a, b) => a[0] - b[0]);
  let reach = -Infinity;
  for (const [x0, x1] of parts) {
    if (reach !== -Infinity && x0 - reach >= em * 0.8) return false;
    reach = Math.max(reach, x1);
  }
  let from = Infinity;
  let to = -Infinity;
  for (const k of content) {
    from = Math.min(from, chars.offset[k]);
    to = Math.max(to, chars.offset[k]);
  }
  const slice = text.text.slice(from, to + 1);
  const words = /\S+/g;
  for (let m = words.exec(slice); m; m = words.exec(slice)) {
    const word = /^(\p{L}\p{Ll}+)[.,;:!?]?$/u.exec(m[0]);
    if (!word || OPERATOR_NAMES.has(word[1].toLowerCase())) continue;
    if (oneSizeOneBaseline(chars, from + m.index, word[1].length, em)) return false;
  }
  return true;
}

/**
 * Whether the characters at these text offsets share one size, the label's or larger, and one
 * baseline: letters of a word, not a formula's scripts (a subscript "ij", "xt" after its base).
 */
function oneSizeOneBaseline(chars: PageChars, start: number, length: number, em: number): boolean {
  const first = chars.indexOfOffset[start];
  if (first < 0 || chars.size[first] < em * 0.8) return false;
  for (let i = start + 1; i < start + length; i++) {
    const k = chars.indexOfOffset[i];
    if (k < 0) return false;
    if (Math.abs(chars.size[k] - chars.size[first]) > chars.size[first] * 0.05) return false;
    if (Math.abs(chars.base[k] - chars.base[first]) > em * 0.1) return false;
  }
  return true;
}

/** Characters that mark a list item (bullets, dashes). */
const BULLETS = new Set([..."•◦▪▫■□▶►▸▹‣⁃–—∙·★☆✓✔➢➤◆◇○●*-"].map((c) => c.codePointAt(0)));

/**
 * Whether a row opens as a list item does: with a bullet character, an item's number or letter
 * ("1.", "(a)", "iv)") followed by anything but a relation sign (a function's argument "(x) ="), or
 * at a small shape drawn at its start (a theme's bullet, a numbered ball). Such a row is never a
 * display's.
 */
export function listItem(
  text: PageText,
  chars: PageChars,
  content: number[],
  span: Span,
  em: number,
): boolean {
  let first = -1;
  for (const k of content) if (first < 0 || chars.x0[k] < chars.x0[first]) first = k;
  if (first < 0) return false;
  const opening = text.text.slice(chars.offset[first], chars.offset[first] + 16);
  if (BULLETS.has(opening.codePointAt(0) ?? 0)) return true;
  const item = /^\(?(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,4})[.)]\s+(\S)/u.exec(opening);
  if (item && !STRICT_RELATIONS.has(item[1].codePointAt(0) ?? 0)) return true;
  for (const g of text.graphics) {
    const b = g.box;
    const w = b.right - b.left;
    const h = b.top - b.bottom;
    // A filled mark, not a rule (a fraction's bar): at least a quarter em each way, at most an em.
    const mark = w >= em * 0.25 && h >= em * 0.25 && w <= em && h <= em;
    const atStart = b.right >= span.x0 - em * 2 && b.left <= span.x0 + em * 0.5;
    if (mark && atStart && b.top > span.y0 && b.bottom < span.y1) return true;
  }
  return false;
}
