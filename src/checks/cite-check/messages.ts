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
      return `the quote occurs ${decision.occurrences} time${decision.occurrences === 1 ? "" : "s"} on ${where} ${citation.page}, but no occurrence has every non-whitespace character inside the box${whereItIs(decision, where, citation.page)}`;
    case "not_on_page":
      return decision.matchesWithAccentsRecombined
        ? `the quote does not occur in ${where} ${citation.page} as its characters stand; it does once accents set apart from their letters are recombined (the page's text layer draws them as separate characters)`
        : `the quote does not occur in ${where} ${citation.page}${whereItIs(decision, where, citation.page)}`;
    case "page_out_of_range":
      return `page ${citation.page} does not exist${pageCount !== undefined ? ` (the source has ${pageCount} pages)` : ""}`;
    default:
      return decision.detail
        ? `${CITE_REASON_MEANINGS[decision.reason]} (${decision.detail})`
        : CITE_REASON_MEANINGS[decision.reason];
  }
}

/** `; it occurs on page 1 in the box (left 66, bottom 690, right 400, top 716)`, or "" when nothing was found. */
function whereItIs(decision: Decision, where: string, page: number): string {
  const found = decision.elsewhere ?? [];
  if (found.length === 0) return "";
  const first = found[0];
  const b = first.box;
  // Rounded outwards, so the box printed still holds the occurrence.
  const box = `(left ${down(b.left)}, bottom ${down(b.bottom)}, right ${up(b.right)}, top ${up(b.top)})`;
  const more = found.length > 1 ? ` (and ${found.length - 1} more: see found_elsewhere)` : "";
  return first.case_differs
    ? `; it does with letters in another case, "${first.text}", on ${where} ${page} in the box ${box}${more}`
    : `; it occurs on ${where} ${page} in the box ${box}${more}`;
}

function down(value: number): number {
  return Math.floor(value * 10) / 10;
}

function up(value: number): number {
  return Math.ceil(value * 10) / 10;
}
