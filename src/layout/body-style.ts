/**
 * The running text's font and printed size, counted over the body lines of the pages the layout
 * rules read: what a caption's label is compared with to tell a caption from a sentence.
 */
import type { PageGeometry, PageText } from "../document/model.js";
import type { BodyStyle } from "./caption-decisions.js";
import { MIN_PLAUSIBLE_SIZE, printedSize } from "./page-chars.js";
import type { BodyLine } from "./text-frames.js";

/** Characters counted at most per page (the running text's style shows long before that). */
const MAX_PER_PAGE = 20000;
/** Twice the largest size told apart by number; a larger (or not finite) size is looked up by name. */
const SIZE_SPAN = 200000;

type Weight = { font: string; size: number; count: number };

export class BodyStyleTally {
  private readonly weights = new Map<string, Weight>();

  add(text: PageText, geometry: PageGeometry, lines: readonly BodyLine[]): void {
    let counted = 0;
    const { fontIndex, fontSizes, looseBoxes } = geometry;
    // Each font and size of the page is found by number, so no name or key string is built per character.
    const names: string[] = [];
    const byNumber = new Map<number, Weight>();
    // Runs of characters share font and size: the last character's weight serves the next while
    // both are the same (a size read from the font is the printed one, whatever the glyph's box).
    let lastFont = -1;
    let lastFontSize = Number.NaN;
    let last: Weight | undefined;
    for (const line of lines) {
      for (let i = line.startUtf16; i < line.endUtf16 && counted < MAX_PER_PAGE; i++) {
        const f = fontIndex[i];
        if (f < 0) continue;
        if (last !== undefined && f === lastFont && fontSizes[i] === lastFontSize) {
          last.count++;
          counted++;
          continue;
        }
        const size =
          Math.round(printedSize(fontSizes[i], looseBoxes[i * 4 + 1], looseBoxes[i * 4 + 3]) * 2) / 2;
        // Sizes are whole half points: twice the size is a whole number.
        const number = size >= 0 && size < SIZE_SPAN / 2 ? f * SIZE_SPAN + size * 2 : -1;
        let w = number >= 0 ? byNumber.get(number) : undefined;
        if (!w) {
          names[f] ??= (text.fonts[f] ?? "").replace(/^[A-Z]{6}\+/, "");
          const font = names[f];
          const key = `${font}|${size}`;
          w = this.weights.get(key);
          if (!w) {
            w = { font, size, count: 0 };
            this.weights.set(key, w);
          }
          if (number >= 0) byNumber.set(number, w);
        }
        w.count++;
        counted++;
        const plausible = fontSizes[i] >= MIN_PLAUSIBLE_SIZE;
        last = plausible ? w : undefined;
        lastFont = f;
        lastFontSize = fontSizes[i];
      }
    }
  }

  /** The most common font and size, or undefined when no body line was read. */
  dominant(): BodyStyle | undefined {
    let best: { font: string; size: number; count: number } | undefined;
    for (const w of this.weights.values()) if (!best || w.count > best.count) best = w;
    return best ? { font: best.font, size: best.size } : undefined;
  }
}
