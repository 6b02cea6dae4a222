/**
 * The running text's font and printed size, counted over the body lines of the pages the layout
 * rules read: what a caption's label is compared with to tell a caption from a sentence.
 */
import type { PageGeometry, PageText } from "../document/model.js";
import type { BodyStyle } from "./caption-decisions.js";
import { printedSize } from "./page-chars.js";
import type { BodyLine } from "./text-frames.js";

/** Characters counted at most per page (the running text's style shows long before that). */
const MAX_PER_PAGE = 20000;

export class BodyStyleTally {
  private readonly weights = new Map<string, { font: string; size: number; count: number }>();

  add(text: PageText, geometry: PageGeometry, lines: readonly BodyLine[]): void {
    let counted = 0;
    const { fontIndex, fontSizes, looseBoxes } = geometry;
    for (const line of lines) {
      for (let i = line.startUtf16; i < line.endUtf16 && counted < MAX_PER_PAGE; i++) {
        const f = fontIndex[i];
        if (f < 0) continue;
        const size =
          Math.round(printedSize(fontSizes[i], looseBoxes[i * 4 + 1], looseBoxes[i * 4 + 3]) * 2) / 2;
        const font = (text.fonts[f] ?? "").replace(/^[A-Z]{6}\+/, "");
        const key = `${font}|${size}`;
        const w = this.weights.get(key);
        if (w) w.count++;
        else this.weights.set(key, { font, size, count: 1 });
        counted++;
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
