/**
 * A page's text as the located quote check reads it: one string in reading order with a box per
 * UTF-16 unit, from the native text layer (exact glyph boxes) or from OCR (word boxes).
 */
import type { PageGeometry, PageText } from "../../document/model.js";
import type { GeometryLevel } from "./verdicts.js";

export interface TextLayer {
  kind: "native" | "ocr";
  text: string;
  /** left, bottom, right, top per UTF-16 unit, in default user space; NaN where a unit has no box. */
  boxes: Float32Array | Float64Array;
  /** Per UTF-16 unit, the group its box is reported with: a line (native) or a word (OCR). */
  groups: Int32Array;
  level: Extract<GeometryLevel, "glyph" | "ocr_word">;
}

/** The native text layer of a page with the engine's exact glyph boxes. */
export function nativeLayer(text: PageText, geometry: PageGeometry | undefined): TextLayer {
  const n = text.text.length;
  let boxes: Float32Array;
  if (geometry && geometry.glyphBoxes.length === n * 4) boxes = geometry.glyphBoxes;
  else {
    // Geometry that does not line up with the text proves nothing.
    boxes = new Float32Array(n * 4).fill(Number.NaN);
  }
  const groups = new Int32Array(n);
  let line = 0;
  for (let i = 0; i < n; i++) {
    groups[i] = line;
    if (text.text.charCodeAt(i) === 10) line++;
  }
  return { kind: "native", text: text.text, boxes, groups, level: "glyph" };
}
