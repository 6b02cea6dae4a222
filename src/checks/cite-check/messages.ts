/** One-line messages for results: the reason's meaning with what the check saw. */
import type { Decision } from "./decide.js";
import type { Citation } from "./request.js";
import { CITE_REASON_MEANINGS } from "./verdicts.js";

export function resultMessage(citation: Citation, decision: Decision, pageCount: number | undefined): string {
  const where = decision.layer?.kind === "ocr" ? "the OCR text of page" : "page";
  switch (decision.reason) {
    case "exact_in_box":
    case "normalized_in_box": {
      const n = decision.locations.length;
      const more = decision.occurrences > n ? ` (${decision.occurrences} occurrences on the page)` : "";
      return `${CITE_REASON_MEANINGS[decision.reason]}: ${n} supported location${n === 1 ? "" : "s"} on ${where} ${citation.page}${more}`;
    }
    case "outside_box":
      return `the quote occurs ${decision.occurrences} time${decision.occurrences === 1 ? "" : "s"} on ${where} ${citation.page}, but no occurrence has every non-whitespace character inside the box`;
    case "not_on_page":
      return decision.matchesWithAccentsRecombined
        ? `the quote does not occur in ${where} ${citation.page} as its characters stand; it does once accents set apart from their letters are recombined (the page's text layer draws them as separate characters)`
        : `the quote does not occur in ${where} ${citation.page}`;
    case "page_out_of_range":
      return `page ${citation.page} does not exist${pageCount !== undefined ? ` (the source has ${pageCount} pages)` : ""}`;
    default:
      return decision.detail
        ? `${CITE_REASON_MEANINGS[decision.reason]} (${decision.detail})`
        : CITE_REASON_MEANINGS[decision.reason];
  }
}
