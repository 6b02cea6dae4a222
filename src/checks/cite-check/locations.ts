/**
 * A supported occurrence as the result reports it: the observed original text, its offsets in the
 * layer's reading-order text, and one box per line (native) or word (OCR): the union of the boxes
 * of its non-whitespace units, each of which lies inside the citation box on its own.
 */
import { isUnicodeWhitespace } from "../../text/whitespace-v1.js";
import type { Occurrence } from "./match.js";
import type { CitationBox } from "./request.js";
import type { TextLayer } from "./text-layer.js";
import type { GeometryLevel } from "./verdicts.js";

export interface CiteLocation {
  text: string;
  start_utf16: number;
  end_utf16: number;
  boxes: CitationBox[];
  geometry_level: GeometryLevel;
  /** Only for a `mixed` span: the level of each box, in order. */
  geometry_levels?: GeometryLevel[];
}

export function toLocation(layer: TextLayer, occurrence: Occurrence): CiteLocation {
  const { startUtf16: start, endUtf16: end } = occurrence;
  const boxes: CitationBox[] = [];
  const b = layer.boxes;
  const round = layer.boxes instanceof Float32Array ? shortestFloat32 : (v: number) => v;
  let group = Number.NaN;
  let current: CitationBox | undefined;
  for (let i = start; i < end; i++) {
    if (isUnicodeWhitespace(layer.text.charCodeAt(i))) continue;
    const k = i * 4;
    if (layer.groups[i] !== group || !current) {
      group = layer.groups[i];
      current = { left: b[k], bottom: b[k + 1], right: b[k + 2], top: b[k + 3] };
      boxes.push(current);
      continue;
    }
    current.left = Math.min(current.left, b[k]);
    current.bottom = Math.min(current.bottom, b[k + 1]);
    current.right = Math.max(current.right, b[k + 2]);
    current.top = Math.max(current.top, b[k + 3]);
  }
  return {
    text: layer.text.slice(start, end),
    start_utf16: start,
    end_utf16: end,
    boxes: boxes.map((x) => ({
      left: round(x.left),
      bottom: round(x.bottom),
      right: round(x.right),
      top: round(x.top),
    })),
    geometry_level: layer.level,
  };
}

/** The shortest decimal that reads back as the same 32-bit float (the engine's own precision). */
export function shortestFloat32(value: number): number {
  for (let p = 1; p <= 9; p++) {
    const candidate = Number(value.toPrecision(p));
    if (Math.fround(candidate) === Math.fround(value)) return candidate;
  }
  return value;
}
