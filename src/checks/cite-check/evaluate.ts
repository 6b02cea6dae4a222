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
import type { Citation } from "./request.js";
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
}

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
  if (all.length > 0) return { reason: "outside_box", locations: [], occurrences: all.length };
  return {
    reason: "not_on_page",
    locations: [],
    occurrences: 0,
    ...(matchesAfterRecombining(layer.text, citation.quote) ? { matchesWithAccentsRecombined: true } : {}),
  };
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
