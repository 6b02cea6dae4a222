// Text layers built in a test: a page holding given text, lines split at '\n', each line a box of its own.
import type { Box, PageText } from "../../src/document/model.js";

export interface TextPageOptions {
  /** UTF-16 offsets of line-end hyphens. */
  hyphens?: number[];
  /** The box of line `i` (default: the whole page, as a layer that says nothing of its lines' places). */
  lineBox?: (i: number) => Box;
  /** Fields to set on the page (its text layer's kind, its largest image, ...). */
  with?: Partial<PageText>;
}

const PAGE_BOX: Box = { left: 0, bottom: 0, right: 612, top: 792 };

/** A page holding `text`, lines split at '\n'. */
export function textPage(n: number, text: string, options: TextPageOptions = {}): PageText {
  const lines: PageText["lines"] = [];
  let start = 0;
  text.split("\n").forEach((part, i) => {
    lines.push({
      startUtf16: start,
      endUtf16: start + part.length,
      box: options.lineBox?.(i) ?? PAGE_BOX,
      fontSize: 10,
    });
    start += part.length + 1;
  });
  return {
    page: n,
    mediaBox: PAGE_BOX,
    cropBox: PAGE_BOX,
    rotation: 0,
    width: 612,
    height: 792,
    text,
    lines,
    lineEndHyphensUtf16: options.hyphens ?? [],
    graphics: [],
    graphicsDropped: 0,
    fonts: [],
    hasTextLayer: /\S/.test(text),
    ...options.with,
  };
}
