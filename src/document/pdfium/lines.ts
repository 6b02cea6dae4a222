/** A page's lines from its text and per-character boxes: pure, no engine. */
import type { LineInfo } from "../model.js";

/** A line's face is named only when this share of its characters is set in it (a run-in bold word is not). */
const LINE_FONT_SHARE = 0.8;

/**
 * One line per run of text between line breaks: the union of its characters' boxes (generated
 * characters, whose boxes are NaN, left out), its most common font size (to 0.1 pt) and, given each
 * character's font, the font nearly all of it is set in (-1 when mixed).
 */
export function buildLines(
  text: string,
  glyphBoxes: Float32Array,
  fontSizes: Float32Array,
  fontIndex?: Int16Array,
): LineInfo[] {
  const lines: LineInfo[] = [];
  const sizes: number[] = [];
  const weights: number[] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && text.charCodeAt(i) !== 10) continue;
    let left = Infinity;
    let bottom = Infinity;
    let right = -Infinity;
    let top = -Infinity;
    sizes.length = 0;
    weights.length = 0;
    let lastRaw = Number.NaN;
    let lastAt = -1;
    for (let k = start; k < i; k++) {
      const b = k * 4;
      const l = glyphBoxes[b];
      if (Number.isNaN(l)) continue; // a generated character
      if (l < left) left = l;
      if (glyphBoxes[b + 1] < bottom) bottom = glyphBoxes[b + 1];
      if (glyphBoxes[b + 2] > right) right = glyphBoxes[b + 2];
      if (glyphBoxes[b + 3] > top) top = glyphBoxes[b + 3];
      // Sizes change per text object, not per character: look the size up only when it changes.
      const raw = fontSizes[k];
      if (raw !== lastRaw) {
        lastRaw = raw;
        const size = Math.round(raw * 10) / 10;
        lastAt = sizes.indexOf(size);
        if (lastAt < 0) {
          lastAt = sizes.length;
          sizes.push(size);
          weights.push(0);
        }
      }
      weights[lastAt]++;
    }
    let fontSize = 0;
    let best = 0;
    for (let k = 0; k < sizes.length; k++) {
      if (weights[k] > best) {
        best = weights[k];
        fontSize = sizes[k];
      }
    }
    lines.push({
      startUtf16: start,
      endUtf16: i,
      box: Number.isFinite(left) ? { left, bottom, right, top } : { left: 0, bottom: 0, right: 0, top: 0 },
      fontSize,
      ...(fontIndex ? { font: lineFont(glyphBoxes, fontIndex, start, i) } : {}),
    });
    start = i + 1;
  }
  return lines;
}

/** The font (an index into the page's fonts) of at least LINE_FONT_SHARE of a line's drawn characters, or -1. */
function lineFont(glyphBoxes: Float32Array, fontIndex: Int16Array, from: number, to: number): number {
  let font = -1;
  let votes = 0;
  let drawn = 0;
  // A majority vote first (one pass), then the winner's share counted.
  for (let k = from; k < to; k++) {
    if (Number.isNaN(glyphBoxes[k * 4]) || fontIndex[k] < 0) continue;
    drawn++;
    if (votes === 0) font = fontIndex[k];
    votes += fontIndex[k] === font ? 1 : -1;
  }
  if (drawn === 0 || font < 0) return -1;
  let share = 0;
  for (let k = from; k < to; k++) if (!Number.isNaN(glyphBoxes[k * 4]) && fontIndex[k] === font) share++;
  return share >= drawn * LINE_FONT_SHARE ? font : -1;
}
