/**
 * What a crop of an accepted label shows: the display's full extent, grown from the label's row over
 * the rows that touch it and stopped at running text; and the row a label on its own line closes.
 */
import type { Box, PageText } from "../document/model.js";
import type { CharRange } from "./char-spans.js";
import type { BandIndex, PageChars } from "./page-chars.js";

/** Marks the characters of lines that read as prose (words in text fonts), which no display absorbs. */
export function proseMask(text: PageText, chars: PageChars): Uint8Array {
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
 * The nearest row above (dir 1) or below (dir -1) a token, within 2.2 em, inside xMin..xMax: the
 * display a label on its own line closes (above) or opens (below). The token's own characters are
 * never part of it, though a row's baseline can lie within reach of theirs (a display-style sum's
 * glyph hangs from a baseline set high, just under a label centred between two rows).
 */
export function nearestRow(
  chars: PageChars,
  index: BandIndex,
  box: Box,
  em: number,
  xMin: number,
  xMax: number,
  dir: 1 | -1,
  own: CharRange,
): number[] {
  const { x0, x1, y0, y1, base } = chars;
  const edge = dir === 1 ? box.top : box.bottom;
  const found = dir === 1 ? index.scan(edge, edge + em * 3.5) : index.scan(edge - em * 3.5, edge);
  const hits = index.hits;
  let nearest = dir === 1 ? Infinity : -Infinity;
  for (let j = 0; j < found; j++) {
    const k = hits[j];
    if (x0[k] < xMin || x1[k] > xMax) continue;
    const d = ((y0[k] + y1[k]) / 2 - edge) * dir;
    if (d <= 0 || d > em * 2.2) continue;
    nearest = dir === 1 ? Math.min(nearest, base[k]) : Math.max(nearest, base[k]);
  }
  const row: number[] = [];
  for (let j = 0; j < found; j++) {
    const k = hits[j];
    if (k >= own.first && k <= own.last) continue;
    if (x0[k] >= xMin && x1[k] <= xMax && Math.abs(base[k] - nearest) <= em * 0.3) row.push(k);
  }
  return row;
}

/**
 * Grows the content's box up and down over the rows that touch it (numerators, denominators, the
 * lines of a multi-line display), stopping at running text: the box a crop of the equation shows.
 */
export function displayBlock(
  limits: { lo: number; hi: number; prose: () => Uint8Array },
  chars: PageChars,
  index: BandIndex,
  start: Box,
  em: number,
  xMin: number,
  xMax: number,
  bodyLines: { box: Box }[],
  label: CharRange,
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
    const found = index.scan(block.bottom - reach, block.top + reach);
    const hits = index.hits;
    for (let j = 0; j < found; j++) {
      const k = hits[j];
      if ((k >= label.first && k <= label.last) || chars.x0[k] < xMin || chars.x1[k] > xMax) continue;
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

/**
 * A label between two rows (a split display's number) closes the row above it (or, on the left,
 * opens the row below); the display's box holds both rows, unless the other is running text or
 * stands past halfway to the next label (`limits`).
 */
export function withRowsBeside(
  content: Box,
  chars: PageChars,
  index: BandIndex,
  label: { box: Box; em: number; members: CharRange },
  limits: { lo: number; hi: number; prose: () => Uint8Array },
  xMin: number,
  xMax: number,
): Box {
  const { box, em } = label;
  // The nearest baselines above and below the label's of characters of its size (not the scripts
  // between the rows).
  const base = chars.base[label.members.first];
  const near = index
    .band(box.bottom - em * 2.2, box.top + em * 2.2)
    .filter((k) => chars.x0[k] >= xMin && chars.x1[k] <= xMax && chars.size[k] >= em * 0.8);
  let below = -Infinity;
  let above = Infinity;
  for (const k of near) {
    const d = chars.base[k] - base;
    if (d < -em * 0.3) below = Math.max(below, chars.base[k]);
    if (d > em * 0.3) above = Math.min(above, chars.base[k]);
  }
  const prose = limits.prose();
  const grown = { ...content };
  for (const [line, within] of [
    [below, below >= limits.lo],
    [above, above <= limits.hi],
  ] as const) {
    const row = near.filter((k) => Math.abs(chars.base[k] - line) <= em * 0.3);
    if (!within || row.length === 0 || row.some((k) => prose[k] === 1)) continue;
    for (const k of row) {
      grown.left = Math.min(grown.left, chars.x0[k]);
      grown.right = Math.max(grown.right, chars.x1[k]);
      grown.bottom = Math.min(grown.bottom, chars.y0[k]);
      grown.top = Math.max(grown.top, chars.y1[k]);
    }
  }
  return grown;
}
