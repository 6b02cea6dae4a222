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
  const weight = new Map<number, number>();
  for (const p of pages) {
    if (!p) continue;
    for (const l of p.lines) {
      if (l.fontSize <= 0) continue;
      const key = Math.round(l.fontSize * 2) / 2;
      weight.set(key, (weight.get(key) ?? 0) + (l.endUtf16 - l.startUtf16));
    }
  }
  let best = 10;
  let bestWeight = -1;
  for (const [size, w] of weight) {
    if (w > bestWeight) {
      best = size;
      bestWeight = w;
    }
  }
  return best;
}

/** Lines of running text: body size, long enough, mostly letters. */
function pageBodyLines(page: PageText, bodySize: number): BodyLine[] {
  const out: BodyLine[] = [];
  for (const line of page.lines) {
    if (!isBodyLine(page, line, bodySize)) continue;
    out.push({ box: line.box, startUtf16: line.startUtf16, endUtf16: line.endUtf16 });
  }
  return out;
}

function isBodyLine(page: PageText, line: LineInfo, bodySize: number): boolean {
  if (Math.abs(line.fontSize - bodySize) > bodySize * 0.12) return false;
  if (line.endUtf16 - line.startUtf16 < 20) return false;
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
  if (letters < visible * 0.6) return false;
  const width = line.box.right - line.box.left;
  return width > bodySize * 10;
}

/** Groups values within the tolerance; returns [value, count] for groups of at least `min`. */
function modes(values: number[], min: number): { value: number; count: number }[] {
  const sorted = [...values].sort((a, b) => a - b);
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
  if (lines.length === 0) return [];
  const frames: Frame[] = [];
  const used = new Set<number>();
  for (const mode of modes(
    lines.map((l) => l.box.right),
    3,
  )) {
    const members = lines
      .map((l, i) => [l, i] as const)
      .filter(([l]) => Math.abs(l.box.right - mode.value) <= EDGE_TOLERANCE);
    for (const [, i] of members) used.add(i);
    frames.push(
      frameFrom(
        members.map(([l]) => l.box),
        mode.value,
        undefined,
      ),
    );
  }
  dropParagraphEnds(frames, lines);
  // Lines inside a justified frame (paragraph ends, indented lines) belong to it; the rest may be
  // ragged-right text, whose lines share their left edge instead.
  const inside = (b: Box) =>
    frames.some((f) => b.left >= f.left - EDGE_TOLERANCE && b.right <= f.right + EDGE_TOLERANCE);
  const rest = lines.filter((l, i) => !used.has(i) && !inside(l.box));
  for (const mode of modes(
    rest.map((l) => l.box.left),
    3,
  )) {
    const members = rest.filter((l) => Math.abs(l.box.left - mode.value) <= EDGE_TOLERANCE).map((l) => l.box);
    const rights = members.map((b) => b.right).sort((a, b) => a - b);
    frames.push(
      frameFrom(members, rights[Math.floor(rights.length * 0.9)] ?? rights[rights.length - 1], mode.value),
    );
  }
  if (frames.length === 0 && lines.length > 0) {
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

/**
 * Paragraphs that end alike (a repeated sentence) share a right edge too. Such a narrow "frame"
 * has lines of a wider frame with the same left edge between its own; a true narrow column (text
 * beside a wrapped figure) does not.
 */
function dropParagraphEnds(frames: Frame[], lines: BodyLine[]): void {
  for (let i = frames.length - 1; i >= 0; i--) {
    const narrow = frames[i];
    const interleaved = frames.some(
      (wide) =>
        wide !== narrow &&
        Math.abs(wide.left - narrow.left) <= EDGE_TOLERANCE * 2 &&
        wide.right > narrow.right + EDGE_TOLERANCE &&
        lines.some(
          (l) =>
            Math.abs(l.box.right - wide.right) <= EDGE_TOLERANCE &&
            l.box.bottom > narrow.bottom &&
            l.box.top < narrow.top,
        ),
    );
    if (interleaved) frames.splice(i, 1);
  }
}

function frameFrom(boxes: Box[], right: number | undefined, left: number | undefined): Frame {
  const lefts = modes(
    boxes.map((b) => b.left),
    2,
  );
  const leftEdge = left ?? (lefts.length > 0 ? lefts[0].value : Math.min(...boxes.map((b) => b.left)));
  return {
    left: Math.min(leftEdge, ...boxes.map((b) => b.left).filter((v) => v > leftEdge - EDGE_TOLERANCE)),
    right: right ?? Math.max(...boxes.map((b) => b.right)),
    bottom: Math.min(...boxes.map((b) => b.bottom)),
    top: Math.max(...boxes.map((b) => b.top)),
    lines: boxes.length,
  };
}

/** Frames with the same edges (a column interrupted by a figure) become one. */
function mergeFrames(frames: Frame[]): Frame[] {
  const out: Frame[] = [];
  for (const f of frames.sort((a, b) => b.lines - a.lines)) {
    const same = out.find(
      (o) =>
        Math.abs(o.left - f.left) <= EDGE_TOLERANCE * 2 && Math.abs(o.right - f.right) <= EDGE_TOLERANCE * 2,
    );
    if (same) {
      same.bottom = Math.min(same.bottom, f.bottom);
      same.top = Math.max(same.top, f.top);
      same.lines += f.lines;
    } else {
      out.push({ ...f });
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
  const bottoms = pages.map((lines) => Math.min(...lines.map((l) => l.box.bottom))).sort((a, b) => a - b);
  const tops = pages.map((lines) => Math.max(...lines.map((l) => l.box.top))).sort((a, b) => a - b);
  return {
    left: Math.min(...docFrames.map((f) => f.left)),
    right: Math.max(...docFrames.map((f) => f.right)),
    bottom: bottoms[Math.floor((bottoms.length - 1) * 0.05)],
    top: tops[Math.ceil((tops.length - 1) * 0.95)],
  };
}
