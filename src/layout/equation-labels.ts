/**
 * Equation labels decided by layout. A candidate is a parenthesised token in a known label form;
 * it is accepted only when it stands at its column's edge beside a displayed equation: content set
 * apart from running text (centred or indented, clear of the label) that is mathematics. Every
 * rule that refuses a candidate is recorded, so a person can see why a label did not count.
 */
import type { Box, GraphicObject, PageText } from "../document/model.js";
import { isEquationLabel } from "./labels.js";
import { BandIndex, MATH_FONT, type PageChars } from "./page-chars.js";
import type { RejectionReason } from "./rejection-reasons.js";
import type { DocumentFrames, Frame } from "./text-frames.js";

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
  /** Empty for an accepted label. */
  reasons: RejectionReason[];
}

/** Thickest path still read as a rule (booktabs' heavy rules are 1.75 pt tall as drawn). */
const RULE = 2.5;

/** Least gap, in em, between a left-side label and its equation (amsmath's multline sets 10 pt). */
const LEFT_GAP = 0.75;

const TOKEN = /(?<![^\s])\(([^()\s]{1,16})\)(\S*)/g;

interface Span {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Offsets of the tokens in the page's text that could be equation labels (no geometry needed). */
export function equationTokenStarts(text: PageText): number[] {
  const out: number[] = [];
  for (const m of text.text.matchAll(TOKEN)) if (isEquationLabel(m[1])) out.push(m.index);
  return out;
}

export function equationCandidates(
  text: PageText,
  chars: PageChars,
  frames: DocumentFrames,
  index: BandIndex = new BandIndex(chars),
): EquationCandidate[] {
  const found: { inner: string; printed: string; trailing: string; token: TokenGeometry }[] = [];
  for (const m of text.text.matchAll(TOKEN)) {
    const inner = m[1];
    if (!isEquationLabel(inner)) continue;
    const start = m.index;
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
    found.push({ inner, printed: m[0], trailing: m[2], token });
  }
  let mask: Uint8Array | undefined;
  const prose = () => {
    mask ??= proseMask(text, chars);
    return mask;
  };
  return found.map((f) => {
    // A display's box stops halfway to the next label standing in the same place above or below.
    const { box, em } = f.token;
    let lo = -Infinity;
    let hi = Infinity;
    for (const o of found) {
      if (o === f || Math.abs(o.token.box.right - box.right) > em * 2) continue;
      if (o.token.box.bottom >= box.top) hi = Math.min(hi, (o.token.box.bottom + box.top) / 2);
      else if (o.token.box.top <= box.bottom) lo = Math.max(lo, (o.token.box.top + box.bottom) / 2);
    }
    return judge(text, chars, index, frames, f.inner, f.printed, f.trailing, f.token, { lo, hi, prose });
  });
}

interface TokenGeometry {
  box: Box;
  em: number;
  members: Set<number>;
}

/** The token's box, provided its characters stand on one baseline from left to right. */
function tokenGeometry(chars: PageChars, members: number[]): TokenGeometry | undefined {
  let left = Infinity;
  let bottom = Infinity;
  let right = -Infinity;
  let top = -Infinity;
  const base = chars.base[members[0]];
  const em = chars.size[members[0]] > 0 ? chars.size[members[0]] : 10;
  let lastX = -Infinity;
  for (const k of members) {
    if (Math.abs(chars.base[k] - base) > em * 0.2) return undefined;
    if (chars.x0[k] < lastX - em * 0.2) return undefined;
    lastX = chars.x0[k];
    left = Math.min(left, chars.x0[k]);
    bottom = Math.min(bottom, chars.y0[k]);
    right = Math.max(right, chars.x1[k]);
    top = Math.max(top, chars.y1[k]);
  }
  return { box: { left, bottom, right, top }, em, members: new Set(members) };
}

function judge(
  text: PageText,
  chars: PageChars,
  index: BandIndex,
  frames: DocumentFrames,
  label: string,
  printed: string,
  trailing: string,
  token: TokenGeometry,
  limits: { lo: number; hi: number; prose: () => Uint8Array },
): EquationCandidate {
  const { box, em } = token;
  const reasons = new Set<RejectionReason>();
  const frame = chooseFrame(box, frames.pageFrames[text.page - 1] ?? [], frames.docFrames, em);
  if (!frame) reasons.add("no-column");
  if (outsideTextBlock(box, frames, text.page, em, chars, index, token.members)) reasons.add("page-margin");

  const xlo = frame ? frame.left - em : 0;
  const xhi = frame ? frame.right + em : text.width + text.cropBox.left;
  const h = box.top - box.bottom;
  const coreLo = box.bottom + h * 0.25;
  const coreHi = box.top - h * 0.25;
  const before: number[] = [];
  const after: number[] = [];
  for (const k of index.band(coreLo, coreHi)) {
    if (token.members.has(k)) continue;
    if (chars.x1[k] <= box.left + 0.5 && chars.x0[k] >= xlo) before.push(k);
    else if (chars.x0[k] >= box.right - 0.5 && chars.x1[k] <= xhi) after.push(k);
  }

  const edgeTolerance = Math.max(2, em * 0.5);
  const atRight = frame !== undefined && Math.abs(box.right - frame.right) <= edgeTolerance;
  const atLeft = frame !== undefined && Math.abs(box.left - frame.left) <= edgeTolerance;
  const afterSpan = spanOf(chars, after);
  let side: "right" | "left" | undefined;
  if (atRight && after.length === 0) side = "right";
  else if (atLeft && before.length === 0 && (!afterSpan || afterSpan.x0 - box.right >= em * LEFT_GAP))
    side = "left";
  else if (atRight) side = "right";
  else if (atLeft) side = "left";

  if (trailing.length > 0) reasons.add("text-after-label");
  if (
    after.length > 0 &&
    !(side === "left" && before.length === 0 && afterSpan && afterSpan.x0 - box.right >= em * LEFT_GAP)
  )
    reasons.add("text-after-label");
  if (frame && !atRight && !atLeft) reasons.add("not-at-column-edge");

  // The rest of the line: the content the label stands beside.
  let content = side === "left" && before.length === 0 ? after : before;
  let closesBlock = false;
  if (content.length === 0) {
    content = rowAbove(chars, index, box, em, xlo, side === "left" ? xhi : box.left);
    closesBlock = content.length > 0;
  }
  const span = spanOf(chars, content);
  const graphics = text.graphics;
  const bars = span ? fractionBars(graphics, box, span, em, frame) : [];
  const math = mathShare(chars, content);
  const nearbyMath = mathAround(chars, index, box, em, span, token.members);

  if (!span) {
    reasons.add("no-display");
    reasons.add("no-math");
  } else {
    if (math.count === 0 && bars.length === 0 && !nearbyMath) reasons.add("no-math");
    if (frame) {
      const gap = side === "left" && content === after ? span.x0 - box.right : box.left - span.x1;
      const startsAtMargin = span.x0 <= frame.left + em * 2.5;
      if (!closesBlock && startsAtMargin && gap < em * 1.0 && math.share < 0.5) reasons.add("no-display");
      if (closesBlock && startsAtMargin && math.share < 0.5 && bars.length === 0) reasons.add("no-display");
      const centre = (span.x0 + span.x1) / 2;
      const tolerance = Math.max(em * 1.5, (frame.right - frame.left) * 0.06);
      const centred =
        Math.abs(centre - (frame.left + frame.right) / 2) <= tolerance ||
        (side === "right" && Math.abs(centre - (frame.left + box.left) / 2) <= tolerance) ||
        (side === "left" && Math.abs(centre - (box.right + frame.right) / 2) <= tolerance);
      // A left-side label's display starts clear of the label (multline's first line sits close to it).
      const indented =
        side === "left" && content === after
          ? span.x0 - box.right >= em * LEFT_GAP
          : span.x0 - frame.left >= em * 1.5;
      if (!centred && !indented) reasons.add("not-centred");
    }
    if (
      isTabular(
        text,
        chars,
        index,
        box,
        em,
        frame,
        content,
        math.share,
        frames.bodyLines[text.page - 1] ?? [],
      )
    )
      reasons.add("tabular");
  }
  if (graphicsBeside(graphics, box, em)) reasons.add("graphics-beside-label");

  // The display's full extent matters only for an accepted label (crops show it).
  const equationBox = span
    ? reasons.size > 0
      ? unionBox(span, bars)
      : displayBlock(
          limits,
          chars,
          index,
          unionBox(span, bars),
          em,
          xlo,
          side === "left" && content === after ? xhi : box.left,
          frames.bodyLines[text.page - 1] ?? [],
          token.members,
        )
    : undefined;
  return {
    label,
    printed,
    page: text.page,
    labelBox: roundBox(box),
    ...(side ? { side } : {}),
    ...(equationBox ? { equationBox: roundBox(equationBox) } : {}),
    reasons: [...reasons].sort(),
  };
}

/** Marks the characters of lines that read as prose (words in text fonts), which no display absorbs. */
function proseMask(text: PageText, chars: PageChars): Uint8Array {
  const mask = new Uint8Array(chars.count);
  for (const line of text.lines) {
    let visible = 0;
    let letters = 0;
    let spaces = 0;
    let math = 0;
    const members: number[] = [];
    for (let i = line.startUtf16; i < line.endUtf16; i++) {
      const c = text.text.charCodeAt(i);
      if (c === 32) spaces++;
      const k = chars.indexOfOffset[i];
      if (k < 0 || (members.length > 0 && members[members.length - 1] === k)) continue;
      members.push(k);
      visible++;
      if (chars.math[k] !== 0) math++;
      else if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) letters++;
    }
    if (visible >= 12 && spaces >= 2 && letters >= visible * 0.6 && math < visible * 0.3)
      for (const k of members) mask[k] = 1;
  }
  return mask;
}

/**
 * The frame a token belongs to: it must stand within the frame's width. A frame of this page whose
 * edge the token stands at wins over the document's common frames (a page in one column of a
 * document with two-column stretches), and among equals the frame with more lines.
 */
function chooseFrame(box: Box, pageFrames: Frame[], docFrames: Frame[], em: number): Frame | undefined {
  const centre = (box.left + box.right) / 2;
  const fits = (f: Frame) => centre >= f.left - em && centre <= f.right + em;
  const near = (f: Frame) => box.top >= f.bottom - em * 15 && box.bottom <= f.top + em * 15;
  const score = (f: Frame) => Math.min(Math.abs(box.right - f.right), Math.abs(box.left - f.left));
  const tolerance = Math.max(2, em * 0.5);
  const best = (pool: Frame[]) => {
    let chosen: Frame | undefined;
    for (const f of pool) {
      const better =
        !chosen ||
        score(f) < score(chosen) - tolerance ||
        (Math.abs(score(f) - score(chosen)) <= tolerance && f.lines > chosen.lines);
      if (better) chosen = f;
    }
    return chosen;
  };
  const local = best(pageFrames.filter((f) => fits(f) && near(f)));
  if (local && score(local) <= tolerance) return local;
  const common = best(docFrames.filter(fits));
  if (common && score(common) <= tolerance) return common;
  return local ?? common;
}

/**
 * In the page margin: beside the text block, or above or below it and cut off from it by empty
 * space (a running head or foot), as opposed to a display that reaches a little lower than the
 * body text of other pages.
 */
function outsideTextBlock(
  box: Box,
  frames: DocumentFrames,
  page: number,
  em: number,
  chars: PageChars,
  index: BandIndex,
  label: Set<number>,
): boolean {
  const local = frames.pageFrames[page - 1] ?? [];
  const blocks = [...(frames.textBlock ? [frames.textBlock] : []), ...local];
  if (blocks.length === 0) return false;
  const within = (b: Box) => box.left >= b.left - em && box.right <= b.right + em;
  const across = blocks.filter(within);
  if (across.length === 0) return true;
  for (const b of across) {
    if (box.bottom >= b.bottom - em * 1.2 && box.top <= b.top + em * 1.2) return false;
  }
  // Above or below every block: a margin only when the token is alone on its row and empty space
  // parts it from the page's content (a page number, a running head), not a display's label.
  const left = Math.min(...across.map((b) => b.left));
  const right = Math.max(...across.map((b) => b.right));
  const h = box.top - box.bottom;
  for (const k of index.band(box.bottom + h * 0.25, box.top - h * 0.25)) {
    if (!label.has(k) && chars.x1[k] >= left && chars.x0[k] <= right) return false;
  }
  const below = across.every((b) => box.top < b.bottom);
  const [lo, hi] = below ? [box.top, box.top + em * 1.2] : [box.bottom - em * 1.2, box.bottom];
  for (const k of index.band(lo, hi)) {
    if (label.has(k) || chars.x1[k] < left || chars.x0[k] > right) continue;
    const mid = (chars.y0[k] + chars.y1[k]) / 2;
    if (below ? mid > box.top : mid < box.bottom) return false;
  }
  return true;
}

function spanOf(chars: PageChars, members: number[]): Span | undefined {
  if (members.length === 0) return undefined;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const k of members) {
    x0 = Math.min(x0, chars.x0[k]);
    y0 = Math.min(y0, chars.y0[k]);
    x1 = Math.max(x1, chars.x1[k]);
    y1 = Math.max(y1, chars.y1[k]);
  }
  return { x0, y0, x1, y1 };
}

/** The row just above the label, left of `xMax`: the display a label on its own line closes. */
function rowAbove(
  chars: PageChars,
  index: BandIndex,
  box: Box,
  em: number,
  xMin: number,
  xMax: number,
): number[] {
  let nearest = Infinity;
  const near = index
    .band(box.top, box.top + em * 3.5)
    .filter((k) => chars.x0[k] >= xMin && chars.x1[k] <= xMax);
  for (const k of near) {
    const mid = (chars.y0[k] + chars.y1[k]) / 2;
    if (mid <= box.top || mid > box.top + em * 2.2) continue;
    nearest = Math.min(nearest, chars.base[k]);
  }
  if (!Number.isFinite(nearest)) return [];
  return near.filter((k) => Math.abs(chars.base[k] - nearest) <= em * 0.3);
}

function mathShare(chars: PageChars, members: number[]): { count: number; share: number } {
  let count = 0;
  for (const k of members) if (chars.math[k] !== 0) count++;
  return { count, share: members.length > 0 ? count / members.length : 0 };
}

/** Math-font characters just above or below the label's row, between the content and the label. */
function mathAround(
  chars: PageChars,
  index: BandIndex,
  box: Box,
  em: number,
  span: Span | undefined,
  label: Set<number>,
): boolean {
  if (!span) return false;
  const lo = box.bottom - em * 1.2;
  const hi = box.top + em * 1.2;
  for (const k of index.band(lo, hi)) {
    if (label.has(k)) continue;
    if (chars.x1[k] < span.x0 - 1 || chars.x0[k] > span.x1 + 1) continue;
    if (chars.math[k] & MATH_FONT) return true;
  }
  return false;
}

/** Thin horizontal paths beside the label and over the content: fraction and radical bars. */
function fractionBars(
  graphics: GraphicObject[],
  box: Box,
  span: Span,
  em: number,
  frame: Frame | undefined,
): Box[] {
  const out: Box[] = [];
  const maxWidth = frame ? (frame.right - frame.left) * 0.6 : em * 30;
  for (const g of graphics) {
    if (g.kind !== "path") continue;
    const b = g.box;
    const w = b.right - b.left;
    const hgt = b.top - b.bottom;
    if (hgt > 2 || w < em * 0.5 || w > maxWidth) continue;
    // A rule that runs on under the label is a table's ruling, not a fraction bar.
    if (b.right > box.left - 1) continue;
    if (b.top < box.bottom - em * 0.8 || b.bottom > box.top + em * 0.8) continue;
    if (b.right < span.x0 - 1 || b.left > span.x1 + 1) continue;
    out.push(b);
  }
  return out;
}

/**
 * A table row: the label lies between wide horizontal rules with no running text between them, or
 * the row is split into cells that line up with the row above or below and it is not mathematics.
 */
function isTabular(
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
  const rules = text.graphics.filter(
    (g) =>
      g.kind === "path" &&
      g.box.top - g.box.bottom <= RULE &&
      g.box.right - g.box.left >= width * 0.3 &&
      g.box.left <= box.right &&
      g.box.right >= box.left - em,
  );
  const bodyBetween = (lo: number, hi: number) =>
    bodyLines.some(
      (l) => l.box.bottom > lo && l.box.top < hi && l.box.right > box.left - width && l.box.left < box.right,
    );
  const above = rules.filter(
    (r) =>
      r.box.bottom >= box.top - 0.5 &&
      r.box.bottom - box.top <= em * 25 &&
      !bodyBetween(box.top, r.box.bottom),
  );
  const below = rules.filter(
    (r) =>
      r.box.top <= box.bottom + 0.5 &&
      box.bottom - r.box.top <= em * 25 &&
      !bodyBetween(r.box.top, box.bottom),
  );
  if (above.length > 0 && below.length > 0) return true;
  if (share >= 0.3 || content.length === 0) return false;
  const gaps = rowGaps(chars, content, em).filter((g) => g[1] < box.left - em);
  if (gaps.length < 2) return false;
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

function rowGaps(chars: PageChars, members: number[], em: number): [number, number][] {
  const sorted = [...members].sort((a, b) => chars.x0[a] - chars.x0[b]);
  const out: [number, number][] = [];
  let reach = -Infinity;
  for (const k of sorted) {
    if (Number.isFinite(reach) && chars.x0[k] - reach >= em * 1.2) out.push([reach, chars.x0[k]]);
    reach = Math.max(reach, chars.x1[k]);
  }
  return out;
}

function neighbourRow(
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
function graphicsBeside(graphics: GraphicObject[], box: Box, em: number): boolean {
  const pad = em * 0.5;
  for (const g of graphics) {
    const b = g.box;
    const touches =
      b.left < box.right + pad &&
      b.right > box.left - pad &&
      b.bottom < box.top + pad &&
      b.top > box.bottom - pad;
    if (!touches) continue;
    if (g.kind === "image") return true;
    const w = b.right - b.left;
    const h = b.top - b.bottom;
    const encloses =
      b.left <= box.left - pad &&
      b.right >= box.right + pad &&
      b.bottom <= box.bottom - pad &&
      b.top >= box.top + pad;
    if (encloses) continue;
    if (w <= RULE && h > em * 3) continue; // a vertical rule beside the column
    if (h <= RULE && w > em * 3) continue; // a horizontal rule
    return true;
  }
  return false;
}

/**
 * Grows the content's box up and down over the rows that touch it (numerators, denominators, the
 * lines of a multi-line display), stopping at running text: the box a crop of the equation shows.
 */
function displayBlock(
  limits: { lo: number; hi: number; prose: () => Uint8Array },
  chars: PageChars,
  index: BandIndex,
  start: Box,
  em: number,
  xMin: number,
  xMax: number,
  bodyLines: { box: Box }[],
  label: Set<number>,
): Box {
  const block = { ...start };
  const reach = em * 0.35;
  const prose = limits.prose();
  const inBody = (k: number) =>
    bodyLines.some(
      (l) =>
        chars.x0[k] >= l.box.left - 0.5 &&
        chars.x1[k] <= l.box.right + 0.5 &&
        chars.y0[k] >= l.box.bottom - 0.5 &&
        chars.y1[k] <= l.box.top + 0.5,
    );
  for (let round = 0; round < 40; round++) {
    let grown = false;
    for (const k of index.band(block.bottom - reach, block.top + reach)) {
      if (label.has(k) || chars.x0[k] < xMin || chars.x1[k] > xMax) continue;
      if (chars.y0[k] >= block.bottom && chars.y1[k] <= block.top) {
        block.left = Math.min(block.left, chars.x0[k]);
        block.right = Math.max(block.right, chars.x1[k]);
        continue;
      }
      if (chars.y1[k] - chars.y0[k] > em * 6 || inBody(k) || prose[k]) continue;
      if (chars.x0[k] > block.right + em * 2 || chars.x1[k] < block.left - em * 2) continue;
      if (chars.y0[k] < limits.lo || chars.y1[k] > limits.hi) continue;
      block.left = Math.min(block.left, chars.x0[k]);
      block.right = Math.max(block.right, chars.x1[k]);
      block.bottom = Math.min(block.bottom, chars.y0[k]);
      block.top = Math.max(block.top, chars.y1[k]);
      grown = true;
    }
    if (!grown) break;
  }
  return block;
}

function unionBox(span: Span, extra: Box[]): Box {
  let { x0, y0, x1, y1 } = span;
  for (const b of extra) {
    x0 = Math.min(x0, b.left);
    y0 = Math.min(y0, b.bottom);
    x1 = Math.max(x1, b.right);
    y1 = Math.max(y1, b.top);
  }
  return { left: x0, bottom: y0, right: x1, top: y1 };
}

export function roundBox(b: Box): Box {
  const r = (v: number) => Math.round(v * 100) / 100;
  return { left: r(b.left), bottom: r(b.bottom), right: r(b.right), top: r(b.top) };
}
