/**
 * The verdicts of a quotation shortened with ellipses: PASS `found-elided` when its parts stand in
 * order close enough to be one passage (the message prints what the ellipses leave out); FAIL
 * `absent` when they are too far apart, or a part is missing or out of order; `wrong-page` when the
 * parts stand, as one passage, on another page.
 */

import { fold } from "../text/fold.js";
import type { QuotationCase } from "./quotation.js";
import { describeOmissions, findElidedInRange, MAX_GAP_UTF16 } from "./quotation-elided.js";
import { wrongPage } from "./quotation-fail.js";
import { absentHint } from "./repair-hint.js";
import type { CheckResult } from "./result.js";

export function checkElided(c: QuotationCase, parts: string[]): CheckResult {
  const { base, pages, labels, page, endPage, evidence } = c;
  const where = endPage === undefined ? `page ${page}` : `pages ${page}-${endPage}`;
  const found = findElidedInRange(pages, page, endPage, parts);
  if (found && found.widestGap <= MAX_GAP_UTF16) {
    const on = [...new Set(found.parts.map((p) => p.page))];
    return {
      ...base,
      verdict: "PASS",
      reason: "found-elided",
      message: `found on ${on.length === 1 ? `page ${on[0]}` : `pages ${on.join("-")}`} with words left out: ${describeOmissions(found.omitted)}`,
      evidence: { ...evidence, parts: found.parts, omitted: found.omitted },
    };
  }
  const whole = parts.join(" ");
  if (found) {
    return {
      ...base,
      verdict: "FAIL",
      reason: "absent",
      message: `not found on ${where} as one passage: the parts are ${found.widestGap.toLocaleString("en-US")} characters apart: not one passage`,
      evidence: { ...evidence, parts: found.parts, widestGap: found.widestGap },
    };
  }
  const elsewhere = pagesHoldingParts(c, parts);
  if (elsewhere.length > 0) return wrongPage(c, elsewhere);
  const missing = firstMissingPart(c, parts);
  const hint = absentHint(pages, labels, page, whole);
  const which =
    missing === undefined
      ? "the parts are not in this order"
      : `part ${missing + 1} of ${parts.length} ("${parts[missing]}") is not there`;
  return {
    ...base,
    verdict: "FAIL",
    reason: "absent",
    message: `not found on ${where}: ${which}${hint ? `; ${hint.text}` : ""}`,
    evidence: {
      ...evidence,
      ...(missing !== undefined ? { missingPart: missing } : {}),
      ...(hint ? { hint } : {}),
    },
  };
}

/** Other pages where the parts stand in order as one passage; candidates are the pages holding the longest part. */
function pagesHoldingParts(c: QuotationCase, parts: string[]): number[] {
  const longest = parts.reduce((a, b) =>
    fold(b, { trim: true }).text.length > fold(a, { trim: true }).text.length ? b : a,
  );
  const named = c.endPage === undefined ? [c.page] : [c.page, c.endPage];
  return c.pages
    .pagesContaining(fold(longest, { trim: true }).text)
    .filter((p) => !named.includes(p))
    .filter((p) => {
      const found = findElidedInRange(c.pages, p, undefined, parts);
      return found !== undefined && found.widestGap <= MAX_GAP_UTF16;
    });
}

/** The first part not on the named pages at all, or undefined when each is there (then the order is wrong). */
function firstMissingPart(c: QuotationCase, parts: string[]): number | undefined {
  const named = c.endPage === undefined ? [c.page] : [c.page, c.endPage];
  const index = parts.findIndex(
    (part) => !named.some((p) => c.pages.findOnPage(p, fold(part, { trim: true }).text, 1).length > 0),
  );
  return index >= 0 ? index : undefined;
}
