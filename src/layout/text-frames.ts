/**
 * Where a document's running text stands: its body font size, the column frames of each page (the
 * left and right edges its body lines share) and the text block all pages share. Read from the
 * text layer alone (line boxes and sizes), so it is cheap for every page.
 */
import type { Box, LineInfo, PageText } from "../document/model.js";

export interface Frame {
  left: number;
  right: number;
  bottom: number;
  top: number;
  /** Body lines that support this frame. */
  lines: number;
}

export interface BodyLine {
  box: Box;
  /** Offsets of the line in PageText.text. */
  startUtf16: number;
  endUtf16: number;
  /** The line's font size as the text layer gives it. */
  fontSize: number;
}

export interface DocumentFrames {
  bodySize: number;
  /** Frames of each page (index page - 1). */
  pageFrames: Frame[][];
  /** Body lines of each page (index page - 1). */
  bodyLines: BodyLine[][];
  /** Frames common to many pages. */
  docFrames: Frame[];
  /** The box running text stays inside, over the whole document; undefined without body text. */
  textBlock: Box | undefined;
}

const EDGE_TOLERANCE = 2;
const LETTER = /\p{L}/u;

export function documentFrames(pages: readonly (PageText | undefined)[]): DocumentFrames {
  const bodySize = dominantSize(pages);
  const bodyLines = pages.map((p) => (p ? pageBodyLines(p, bodySize) : []));
  const pageFrames = bodyLines.map((lines) => framesOf(lines));
  const docFrames = commonFrames(pageFrames);
  return { bodySize, pageFrames, bodyLines, docFrames, textBlock: textBlock(bodyLines, docFrames) };
}

function dominantSize(pages: readonly (PageText | undefined)[]): number {
  let best = 10;
  let bestWeight = -1;
  for (const [halfPoints, w] of sizeWeights(pages)) {
    if (w > bestWeight) {
      best = halfPoints / 2;
      bestWeight = w;
    }
  }
  return best;
}

/**
 * Characters set in each line font size, keyed by the size in whole half points (a small integer
 * key: a fractional one makes every lookup box a number), in order of first use.
 */
function sizeWeights(pages: readonly (PageText | undefined)[]): Map<number, number> {
  const weight = new Map<number, number>();
  for (const p of pages) {
    if (!p) continue;
    const lines = p.lines;
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      if (l.fontSize <= 0) continue;
      const key = Math.round(l.fontSize * 2);
      weight.set(key, (weight.get(key) ?? 0) + (l.endUtf16 - l.startUtf16));
    }
  }
  return weight;
}

/** Lines of running text: body size, long enough, mostly letters. */
function pageBodyLines(page: PageText, bodySize: number): BodyLine[] {
  const out: BodyLine[] = [];
  const lines = page.lines;
  for (let i = 0; i < lines.length; i++) if (isBodyLine(page, lines[i], bodySize)) out.push(lines[i]);
  return out;
}

function isBodyLine(page: PageText, line: LineInfo, bodySize: number): boolean {
  if (Math.abs(line.fontSize - bodySize) > bodySize * 0.12) return false;
  if (line.endUtf16 - line.startUtf16 < 20) return false;
  if (line.box.right - line.box.left <= bodySize * 10) return false;
  let letters = 0;
  let visible = 0;
  let spaces = 0;
  const text = page.text;
  for (let i = line.startUtf16; i < line.endUtf16; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      spaces++;
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) continue;
    visible++;
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) letters++;
    else if (c > 127 && LETTER.test(String.fromCodePoint(text.codePointAt(i) ?? c))) letters++;
  }
  if (visible < 20 || spaces < 3) return false;
  return letters >= visible * 0.6;
}

/** Groups values within the tolerance; returns [value, count] for groups of at least `min`. */
function modes(values: number[], min: number): { value: number; count: number }[] {
  const sorted = new Float64Array(values).sort();
  const out: { value: number; count: number }[] = [];
  let i = 0;
  while (i < sorted.length) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] - sorted[i] <= EDGE_TOLERANCE) j++;
    const count = j - i + 1;
    if (count >= min) out.push({ value: sorted[Math.floor((i + j) / 2)], count });
    i = j + 1;
  }
  return out;
}

/**
 * Column frames: justified lines share their right edge; ragged-right lines share their left edge.
 * Each shared edge with its lines gives one frame.
 */
export function framesOf(lines: BodyLine[]): Frame[] {
  const n = lines.length;
  if (n === 0) return [];
  const frames: Frame[] = [];
  const used = new Uint8Array(n);
  const rights: number[] = new Array(n);
  for (let i = 0; i < n; i++) rights[i] = lines[i].box.right;
  for (const mode of modes(rights, 3)) {
    const members: Box[] = [];
    for (let i = 0; i < n; i++) {
      const box = lines[i].box;
      if (Math.abs(box.right - mode.value) > EDGE_TOLERANCE) continue;
      used[i] = 1;
      members.push(box);
    }
    frames.push(frameFrom(members, mode.value, undefined));
  }
  dropParagraphEnds(frames, lines);
  // Lines inside a justified frame (paragraph ends, indented lines) belong to it; the rest may be
  // ragged-right text, whose lines share their left edge instead.
  const rest: Box[] = [];
  for (let i = 0; i < n; i++) {
    const box = lines[i].box;
    if (!used[i] && !insideFrame(frames, box)) rest.push(box);
  }
  const restLefts: number[] = new Array(rest.length);
  for (let i = 0; i < rest.length; i++) restLefts[i] = rest[i].left;
  for (const mode of modes(restLefts, 3)) {
    const members: Box[] = [];
    for (const box of rest) if (Math.abs(box.left - mode.value) <= EDGE_TOLERANCE) members.push(box);
    const memberRights = new Float64Array(members.length);
    for (let i = 0; i < members.length; i++) memberRights[i] = members[i].right;
    memberRights.sort();
    frames.push(
      frameFrom(
        members,
        memberRights[Math.floor(memberRights.length * 0.9)] ?? memberRights[memberRights.length - 1],
        mode.value,
      ),
    );
  }
  if (frames.length === 0) {
    frames.push(
      frameFrom(
        lines.map((l) => l.box),
        undefined,
        undefined,
      ),
    );
  }
  return mergeFrames(frames);
}

function insideFrame(frames: Frame[], b: Box): boolean {
  for (const f of frames) {
    if (b.left >= f.left - EDGE_TOLERANCE && b.right <= f.right + EDGE_TOLERANCE) return true;
  }
  return false;
}

/**
 * Paragraphs that end alike (a repeated sentence) share a right edge too. Such a narrow "frame"
 * has lines of a wider frame with the same left edge between its own; a true narrow column (text
 * beside a wrapped figure) does not.
 */
function dropParagraphEnds(frames: Frame[], lines: BodyLine[]): void {
  for (let i = frames.length - 1; i >= 0; i--) {
    if (interleaved(frames, i, lines)) frames.splice(i, 1);
  }
}

/**
 * Whether lines of a wider frame with the same left edge stand between the lines of frame i, which
 * do not run as a column's do: a stretch of three lines one after another ending at its edge is a
 * narrower column's (a page mixing three columns and two, one left edge for both), not paragraphs
 * that end alike.
 */
function interleaved(frames: Frame[], i: number, lines: BodyLine[]): boolean {
  const narrow = frames[i];
  if (runsAsColumn(narrow, lines)) return false;
  for (const wide of frames) {
    if (wide === narrow) continue;
    if (Math.abs(wide.left - narrow.left) > EDGE_TOLERANCE * 2) continue;
    if (!(wide.right > narrow.right + EDGE_TOLERANCE)) continue;
    for (let j = 0; j < lines.length; j++) {
      const l = lines[j].box;
      if (Math.abs(l.right - wide.right) <= EDGE_TOLERANCE && l.bottom > narrow.bottom && l.top < narrow.top)
        return true;
    }
  }
  return false;
}

/** Whether, among the lines sharing the frame's left edge, three in a row end at its right edge. */
function runsAsColumn(frame: Frame, lines: BodyLine[]): boolean {
  const same: Box[] = [];
  for (const l of lines)
    if (
      Math.abs(l.box.left - frame.left) <= EDGE_TOLERANCE * 2 &&
      l.box.top <= frame.top &&
      l.box.bottom >= frame.bottom
    )
      same.push(l.box);
  same.sort((a, b) => b.top - a.top);
  let run = 0;
  for (const b of same) {
    run = Math.abs(b.right - frame.right) <= EDGE_TOLERANCE ? run + 1 : 0;
    if (run >= COLUMN_RUN) return true;
  }
  return false;
}

/** Lines one after another that show a column (paragraphs ending alike give one at a time). */
const COLUMN_RUN = 3;

function frameFrom(boxes: Box[], right: number | undefined, left: number | undefined): Frame {
  let minLeft = Infinity;
  let maxRight = -Infinity;
  let bottom = Infinity;
  let top = -Infinity;
  for (const b of boxes) {
    minLeft = Math.min(minLeft, b.left);
    maxRight = Math.max(maxRight, b.right);
    bottom = Math.min(bottom, b.bottom);
    top = Math.max(top, b.top);
  }
  let leftEdge = left;
  if (leftEdge === undefined) {
    const lefts = modes(
      boxes.map((b) => b.left),
      2,
    );
    leftEdge = lefts.length > 0 ? lefts[0].value : minLeft;
  }
  let frameLeft = leftEdge;
  for (const b of boxes) if (b.left > leftEdge - EDGE_TOLERANCE) frameLeft = Math.min(frameLeft, b.left);
  return {
    left: frameLeft,
    right: right ?? maxRight,
    bottom,
    top,
    lines: boxes.length,
  };
}

/** Frames with the same edges (a column interrupted by a figure) become one. */
function mergeFrames(frames: Frame[]): Frame[] {
  const out: Frame[] = [];
  for (const f of frames.sort((a, b) => b.lines - a.lines)) {
    let same: Frame | undefined;
    for (const o of out) {
      if (
        Math.abs(o.left - f.left) <= EDGE_TOLERANCE * 2 &&
        Math.abs(o.right - f.right) <= EDGE_TOLERANCE * 2
      ) {
        same = o;
        break;
      }
    }
    if (same) {
      same.bottom = Math.min(same.bottom, f.bottom);
      same.top = Math.max(same.top, f.top);
      same.lines += f.lines;
    } else {
      out.push({ left: f.left, right: f.right, bottom: f.bottom, top: f.top, lines: f.lines });
    }
  }
  return out;
}

/** Frames that recur over the document, weighted by the lines that support them. */
function commonFrames(pageFrames: Frame[][]): Frame[] {
  const all = mergeFrames(pageFrames.flat().map((f) => ({ ...f })));
  const total = all.reduce((s, f) => s + f.lines, 0);
  return all.filter((f) => f.lines >= Math.max(4, total * 0.03));
}

/**
 * The text block: the doc frames' width, and the height that the body text of most full pages
 * reaches (a running head or foot in body size on a few pages does not stretch it).
 */
function textBlock(bodyLines: BodyLine[][], docFrames: Frame[]): Box | undefined {
  const full = bodyLines.filter((lines) => lines.length >= 5);
  const pages = full.length > 0 ? full : bodyLines.filter((lines) => lines.length > 0);
  if (pages.length === 0 || docFrames.length === 0) return undefined;
  const bottoms = new Float64Array(pages.length);
  const tops = new Float64Array(pages.length);
  pages.forEach((lines, i) => {
    let bottom = Infinity;
    let top = -Infinity;
    for (const l of lines) {
      bottom = Math.min(bottom, l.box.bottom);
      top = Math.max(top, l.box.top);
    }
    bottoms[i] = bottom;
    tops[i] = top;
  });
  bottoms.sort();
  tops.sort();
  return {
    left: Math.min(...docFrames.map((f) => f.left)),
    right: Math.max(...docFrames.map((f) => f.right)),
    bottom: bottoms[Math.floor((bottoms.length - 1) * 0.05)],
    top: tops[Math.ceil((tops.length - 1) * 0.95)],
  };
}
