/**
 * Figure captions decided by layout, not by a pattern on a line. A candidate is a line that begins
 * "Figure N", "Fig. N" or "FIG. N" followed by "." or ":". It is a caption when it starts a block
 * (it is not a sentence inside a paragraph), its label is followed by the caption's text, and it
 * sits by a figure's graphics or shares the formatting of the document's captions that do.
 */
import type { Box, PageText } from "../document/model.js";
import type { CaptionRejection } from "./caption-rejections.js";
import { spanOf } from "./char-spans.js";
import { isFigureLabel } from "./labels.js";
import type { BandIndex, PageChars } from "./page-chars.js";
import type { DocumentFrames } from "./text-frames.js";

export type CaptionKeyword = "Figure" | "FIGURE" | "Fig." | "FIG.";

export {
  CAPTION_REJECTION_MEANINGS,
  CAPTION_REJECTIONS,
  type CaptionRejection,
} from "./caption-rejections.js";

export interface CaptionCandidate {
  label: string;
  page: number;
  keyword: CaptionKeyword;
  separator: "." | ":";
  /** The caption's opening words as printed (up to 80 characters). */
  text: string;
  /** Box of "Figure N." */
  labelBox: Box;
  /** Box of the caption's block (its lines). */
  captionBox: Box;
  /** Box of the graphics the caption sits by, when any. */
  figureBox?: Box;
  /** Formatting that consistency compares: keyword, separator, font and size of the keyword. */
  style: string;
  /** Rejections found on the page alone; the document-wide consistency step decides "no-figure". */
  rejections: CaptionRejection[];
}

const CAPTION_START =
  /(?:^|\n)[ \t]*((Figure|FIGURE|Fig\.|FIG\.)[ \t\u00a0]?([A-Z]{0,2}\.?\d{1,3}(?:\.\d{1,3}){0,2}[a-z]?)([.:]))(?!\d)/g;

/** A line of the page's text that could open a caption: "Figure N." and the like. */
export interface CaptionToken {
  /** UTF-16 offsets of "Figure N." in PageText.text. */
  startUtf16: number;
  endUtf16: number;
  label: string;
  keyword: CaptionKeyword;
  separator: "." | ":";
}

/** The lines in the page's text that could open a caption (no geometry needed). */
export function captionTokens(text: PageText): CaptionToken[] {
  const out: CaptionToken[] = [];
  for (const m of text.text.matchAll(CAPTION_START)) {
    if (!isFigureLabel(m[3])) continue;
    const start = m.index + m[0].length - m[1].length;
    out.push({
      startUtf16: start,
      endUtf16: start + m[1].length,
      label: m[3],
      keyword: m[2] as CaptionKeyword,
      separator: m[4] as "." | ":",
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
): CaptionCandidate[] {
  const out: CaptionCandidate[] = [];
  for (const { startUtf16: start, endUtf16: end, label, keyword, separator } of tokens) {
    const members: number[] = [];
    for (let i = start; i < end; i++) {
      const k = chars.indexOfOffset[i];
      if (k >= 0 && members[members.length - 1] !== k) members.push(k);
    }
    if (members.length === 0) continue;
    const candidate = judge(text, chars, index, frames, members, start, end, { label, keyword, separator });
    if (candidate) out.push(candidate);
  }
  return out;
}

function judge(
  text: PageText,
  chars: PageChars,
  index: BandIndex,
  frames: DocumentFrames,
  members: number[],
  startUtf16: number,
  endUtf16: number,
  found: { label: string; keyword: CaptionKeyword; separator: "." | ":" },
): CaptionCandidate | undefined {
  const first = members[0];
  const em = chars.size[first] > 0 ? chars.size[first] : 10;
  const base = chars.base[first];
  let left = Infinity;
  let bottom = Infinity;
  let right = -Infinity;
  let top = -Infinity;
  for (const k of members) {
    if (Math.abs(chars.base[k] - base) > em * 0.3) return undefined;
    left = Math.min(left, chars.x0[k]);
    bottom = Math.min(bottom, chars.y0[k]);
    right = Math.max(right, chars.x1[k]);
    top = Math.max(top, chars.y1[k]);
  }
  const labelBox = { left, bottom, right, top };
  const rejections: CaptionRejection[] = [];
  const memberSet = new Set(members);

  // The caption's first row, and the rows that follow it at the same leading.
  const rowOf = (b: number) =>
    index.band(b - em * 0.3, b + em * 0.3).filter((k) => Math.abs(chars.base[k] - b) <= em * 0.3);
  const row = rowOf(base);
  if (row.some((k) => !memberSet.has(k) && chars.x1[k] <= left && chars.x1[k] > left - em))
    rejections.push("not-line-start");
  const rowSpan = extent(
    chars,
    row.filter((k) => chars.x0[k] >= left - 0.5),
  );
  const block = { ...rowSpan };
  let lastBase = base;
  for (let step = 0; step < 60; step++) {
    const next = rowBelow(chars, index, lastBase, em, block.left, block.right);
    if (next === undefined) break;
    const span = extent(
      chars,
      rowOf(next).filter((k) => chars.x1[k] > block.left - em && chars.x0[k] < block.right + em),
    );
    block.left = Math.min(block.left, span.left);
    block.right = Math.max(block.right, span.right);
    block.bottom = Math.min(block.bottom, span.bottom);
    lastBase = next;
  }

  // Inside a paragraph: a running-text line just above, at the body's leading.
  const bodyLines = frames.bodyLines[text.page - 1] ?? [];
  const lineAbove = bodyLines.find(
    (l) =>
      l.box.bottom >= top - em * 0.2 &&
      l.box.bottom - top <= em * 0.75 &&
      l.box.left < rowSpan.right &&
      l.box.right > rowSpan.left &&
      Math.abs(l.box.left - rowSpan.left) <= em * 2.5,
  );
  if (lineAbove) rejections.push("inside-paragraph");

  const rest = text.text.slice(endUtf16, endUtf16 + 200);
  const restOfLine = rest.split("\n", 2);
  if (!/\p{L}/u.test(restOfLine[0]) && !/\p{L}/u.test(restOfLine[1] ?? ""))
    rejections.push("no-caption-text");

  const figureBox = graphicsBeside(text, block, em);
  const font = chars.font[first] >= 0 ? (text.fonts[chars.font[first]] ?? "") : "";
  return {
    label: found.label,
    page: text.page,
    keyword: found.keyword,
    separator: found.separator,
    text: captionText(text, chars, startUtf16, block),
    labelBox: round(labelBox),
    captionBox: round(block),
    ...(figureBox ? { figureBox: round(figureBox) } : {}),
    style: `${found.keyword}|${found.separator}|${font.replace(/^[A-Z]{6}\+/, "")}|${Math.round(em * 2) / 2}`,
    rejections,
  };
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
    if (d < em * 0.8 || d > em * 1.6) continue;
    if (chars.x1[k] < left || chars.x0[k] > right) continue;
    if (Math.abs(chars.size[k] - em) > em * 0.25) continue;
    if (best === undefined || chars.base[k] > best) best = chars.base[k];
  }
  return best;
}

/**
 * The graphics a caption sits by: image or path objects just above its first line or just below its
 * block, overlapping it horizontally. Returns their union, or undefined when there are none.
 */
function graphicsBeside(text: PageText, block: Box, em: number): Box | undefined {
  const reach = em * 4;
  const width = block.right - block.left;
  const sides: { gap: number; box: Box }[] = [];
  for (const side of ["above", "below"] as const) {
    let found: Box | undefined;
    let gap = Infinity;
    for (const g of text.graphics) {
      const b = g.box;
      const overlap = Math.min(b.right, block.right + em) - Math.max(b.left, block.left - em);
      if (overlap <= Math.min(width, b.right - b.left) * 0.3) continue;
      const d = side === "above" ? b.bottom - block.top : block.bottom - b.top;
      if (d < -em * 0.5 || d > reach) continue;
      // A lone thin rule (a table's or a float's ruling) is not a figure.
      const w = b.right - b.left;
      const h = b.top - b.bottom;
      if (g.kind === "path" && (w <= 1.5 || h <= 1.5) && text.graphics.length < 3) continue;
      gap = Math.min(gap, d);
      found = found ? union(found, b) : { ...b };
    }
    if (found) sides.push({ gap, box: found });
  }
  sides.sort((a, b) => a.gap - b.gap);
  return sides[0]?.box;
}

function union(a: Box, b: Box): Box {
  return {
    left: Math.min(a.left, b.left),
    bottom: Math.min(a.bottom, b.bottom),
    right: Math.max(a.right, b.right),
    top: Math.max(a.top, b.top),
  };
}

/** The caption's words: its text from the keyword on, as long as it stays inside the caption's block. */
function captionText(text: PageText, chars: PageChars, startUtf16: number, block: Box): string {
  let end = startUtf16;
  for (let i = startUtf16; i < text.text.length && i - startUtf16 < 200; i++) {
    const k = chars.indexOfOffset[i];
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

/**
 * The document-wide step: a candidate with no figure graphics beside it is still a caption when it
 * shares its formatting (keyword, separator, font, size) with a caption that has them.
 */
export function decideCaptions(candidates: CaptionCandidate[]): CaptionCandidate[] {
  const anchored = new Set(
    candidates.filter((c) => c.rejections.length === 0 && c.figureBox).map((c) => c.style),
  );
  return candidates.map((c) => {
    if (c.rejections.length > 0 || c.figureBox || anchored.has(c.style)) return c;
    return { ...c, rejections: [...c.rejections, "no-figure"] };
  });
}

function round(b: Box): Box {
  const r = (v: number) => Math.round(v * 100) / 100;
  return { left: r(b.left), bottom: r(b.bottom), right: r(b.right), top: r(b.top) };
}
