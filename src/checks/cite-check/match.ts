/**
 * Finding a quote in a text layer and deciding, per occurrence, whether the box supports it: every
 * non-whitespace UTF-16 unit of the occurrence must have a box wholly inside the citation box
 * (within the containment tolerance). One unit outside rules an occurrence out; a unit without a
 * box (and none outside) leaves it undecided. A union of partial boxes never counts.
 */
import { isUnicodeWhitespace, type WhitespaceV1Text, whitespaceV1 } from "../../text/whitespace-v1.js";
import { CITE_CHECK_LIMITS } from "./limits.js";
import type { CitationBox } from "./request.js";
import type { TextLayer } from "./text-layer.js";
import type { Normalization } from "./verdicts.js";

export type OccurrenceStatus = "inside" | "outside" | "undecided";

export interface Occurrence {
  /** Offsets in the layer's original text (UTF-16 units). */
  startUtf16: number;
  endUtf16: number;
  status: OccurrenceStatus;
}

const normalisedLayers = new WeakMap<TextLayer, WhitespaceV1Text>();

function normalisedText(layer: TextLayer): WhitespaceV1Text {
  let held = normalisedLayers.get(layer);
  if (!held) {
    held = whitespaceV1(layer.text);
    normalisedLayers.set(layer, held);
  }
  return held;
}

/** Every occurrence of the quote in the layer under a profile (overlapping ones included). */
export function findQuote(
  layer: TextLayer,
  quote: string,
  profile: Normalization,
  box: CitationBox,
): Occurrence[] {
  const found: Occurrence[] = [];
  if (profile === "none") {
    for (let at = layer.text.indexOf(quote); at >= 0; at = layer.text.indexOf(quote, at + 1)) {
      found.push({
        startUtf16: at,
        endUtf16: at + quote.length,
        status: statusOf(layer, at, at + quote.length, box),
      });
    }
    return found;
  }
  const needle = whitespaceV1(quote).text;
  if (needle.length === 0) return found;
  const hay = normalisedText(layer);
  for (let at = hay.text.indexOf(needle); at >= 0; at = hay.text.indexOf(needle, at + 1)) {
    const start = hay.startUtf16[at];
    const end = hay.endUtf16[at + needle.length - 1];
    found.push({ startUtf16: start, endUtf16: end, status: statusOf(layer, start, end, box) });
  }
  return found;
}

/** Whether every non-whitespace unit in [start, end) has its box inside `box`. */
export function statusOf(layer: TextLayer, start: number, end: number, box: CitationBox): OccurrenceStatus {
  const tol = CITE_CHECK_LIMITS.containmentTolerance;
  const left = box.left - tol;
  const bottom = box.bottom - tol;
  const right = box.right + tol;
  const top = box.top + tol;
  const b = layer.boxes;
  const text = layer.text;
  let missing = false;
  for (let i = start; i < end; i++) {
    if (isUnicodeWhitespace(text.charCodeAt(i))) continue;
    const k = i * 4;
    if (k + 3 >= b.length) {
      missing = true;
      continue;
    }
    const l = b[k];
    const bo = b[k + 1];
    const r = b[k + 2];
    const t = b[k + 3];
    if (Number.isNaN(l) || Number.isNaN(bo) || Number.isNaN(r) || Number.isNaN(t)) {
      missing = true;
      continue;
    }
    if (l < left || bo < bottom || r > right || t > top) return "outside";
  }
  return missing ? "undecided" : "inside";
}
