/**
 * One citation against one text layer of its page: exact matching first, then whitespace_v1 when
 * asked; up to eight supported occurrences are kept. Only a layer that was read completely comes
 * here, so "no supported occurrence" is a real non-match unless some character lacked a box.
 */
import { recombineAccents } from "../../text/accents.js";
import { whitespaceV1 } from "../../text/whitespace-v1.js";
import { CITE_CHECK_LIMITS } from "./limits.js";
import { type CiteLocation, toLocation } from "./locations.js";
import { findQuote, type Occurrence } from "./match.js";
import type { Citation, CitationBox } from "./request.js";
import type { TextLayer } from "./text-layer.js";
import type { CiteReason, Normalization } from "./verdicts.js";

export interface LayerOutcome {
  reason: CiteReason;
  locations: CiteLocation[];
  /** Occurrences of the quote on the page, supported or not (under the profile that decided). */
  occurrences: number;
  /**
   * For not_on_page: the quote does occur once accents set apart from their letters are recombined
   * (and whitespace runs collapsed). Matching stays character-exact; this only says why it failed.
   */
  matchesWithAccentsRecombined?: boolean;
  /**
   * For outside_box, where on the page the quote does occur; for not_on_page, where it occurs with
   * its letters in another case (`caseDiffers`). At most three, in page order.
   */
  elsewhere?: FoundElsewhere[];
}

/** An occurrence of the quote that does not support it: its text and boxes, as a location's. */
export interface FoundElsewhere {
  text: string;
  /** One per line (native) or word (OCR), as a supported location's. */
  boxes: CitationBox[];
  /** The union of the boxes: a box that would hold the occurrence. */
  box: CitationBox;
  /** The page's letters differ from the quote's only in case. */
  case_differs?: true;
}

/** How many unsupported occurrences are named. */
const ELSEWHERE_SHOWN = 3;

export function evaluateOnLayer(
  layer: TextLayer,
  citation: Citation,
  normalization: Normalization,
): LayerOutcome {
  const exact = findQuote(layer, citation.quote, "none", citation.bounding_box);
  const exactIn = exact.filter((o) => o.status === "inside");
  if (exactIn.length > 0) return supported("exact_in_box", layer, exactIn, exact.length);
  let all: Occurrence[] = exact;
  let undecided = exact.some((o) => o.status === "undecided");
  if (normalization === "whitespace_v1") {
    const normalised = findQuote(layer, citation.quote, "whitespace_v1", citation.bounding_box);
    const normalisedIn = normalised.filter((o) => o.status === "inside");
    if (normalisedIn.length > 0)
      return supported("normalized_in_box", layer, normalisedIn, normalised.length);
    all = normalised.length >= exact.length ? normalised : exact;
    undecided ||= normalised.some((o) => o.status === "undecided");
  }
  if (undecided) return { reason: "geometry_missing", locations: [], occurrences: all.length };
  if (all.length > 0)
    return {
      reason: "outside_box",
      locations: [],
      occurrences: all.length,
      elsewhere: all.slice(0, ELSEWHERE_SHOWN).map((o) => foundAt(layer, o)),
    };
  const caseOnly = inOtherCase(layer, citation.quote);
  return {
    reason: "not_on_page",
    locations: [],
    occurrences: 0,
    ...(matchesAfterRecombining(layer.text, citation.quote) ? { matchesWithAccentsRecombined: true } : {}),
    ...(caseOnly.length > 0 ? { elsewhere: caseOnly } : {}),
  };
}

function foundAt(layer: TextLayer, occurrence: Occurrence, caseDiffers = false): FoundElsewhere {
  const { text, boxes } = toLocation(layer, occurrence);
  const box = {
    left: Math.min(...boxes.map((b) => b.left)),
    bottom: Math.min(...boxes.map((b) => b.bottom)),
    right: Math.max(...boxes.map((b) => b.right)),
    top: Math.max(...boxes.map((b) => b.top)),
  };
  return { text, boxes, box, ...(caseDiffers ? { case_differs: true as const } : {}) };
}

/**
 * The occurrences of the quote whose letters differ from it only in case (whitespace runs collapsed),
 * where lowercasing keeps every text's length (so offsets still hold).
 */
function inOtherCase(layer: TextLayer, quote: string): FoundElsewhere[] {
  const needle = whitespaceV1(quote).text;
  const lowerNeedle = needle.toLowerCase();
  if (needle.length === 0 || lowerNeedle.length !== needle.length) return [];
  const hay = whitespaceV1(layer.text);
  const lower = hay.text.toLowerCase();
  if (lower.length !== hay.text.length) return [];
  const out: FoundElsewhere[] = [];
  for (
    let at = lower.indexOf(lowerNeedle);
    at >= 0 && out.length < ELSEWHERE_SHOWN;
    at = lower.indexOf(lowerNeedle, at + 1)
  ) {
    const startUtf16 = hay.startUtf16[at];
    const endUtf16 = hay.endUtf16[at + needle.length - 1];
    const occurrence: Occurrence = { startUtf16, endUtf16, status: "outside" };
    if (
      toLocation(layer, occurrence).boxes.every((b) =>
        [b.left, b.bottom, b.right, b.top].every(Number.isFinite),
      )
    )
      out.push(foundAt(layer, occurrence, true));
  }
  return out;
}

function matchesAfterRecombining(page: string, quote: string): boolean {
  const needle = recombineAccents(whitespaceV1(quote).text);
  return needle.length > 0 && recombineAccents(whitespaceV1(page).text).includes(needle);
}

function supported(
  reason: CiteReason,
  layer: TextLayer,
  inside: Occurrence[],
  occurrences: number,
): LayerOutcome {
  return {
    reason,
    locations: inside.slice(0, CITE_CHECK_LIMITS.maxLocations).map((o) => toLocation(layer, o)),
    occurrences,
  };
}
