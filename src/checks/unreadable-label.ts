/**
 * A label not found while the engine failed on some pages (it aborted, or ran out of its memory
 * limit): the label may be printed on such a page, so the check FLAGs `page-unreadable` instead of
 * failing. A page that could not be read is no evidence of absence.
 */
import type { AnchorsRecord } from "../layout/anchors.js";
import { pageList } from "./equation.js";
import type { CheckResult } from "./result.js";

export function unfoundOrUnreadable(
  anchors: AnchorsRecord,
  subject: string,
  unfound: CheckResult,
): CheckResult {
  const pages = anchors.pagesUnreadable ?? [];
  if (pages.length === 0) return unfound;
  return {
    ...unfound,
    verdict: "FLAG",
    reason: "page-unreadable",
    message: `${subject} was not found on the pages that could be read; the text of ${pageList(pages)} could not be extracted (the engine failed on it), so the label may be printed there and was not checked`,
    evidence: { ...unfound.evidence, pagesUnreadable: pages },
  };
}
