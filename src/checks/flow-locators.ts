/**
 * The locators a flow source has. A flow source has sections, not pages: a record naming `page` or
 * `endPage` is EVIDENCE_INVALID naming the locators the source has, except a printed page of a source
 * that prints page labels (an EPUB page-list). Kept apart from the checks, so a refusal or an answer
 * from kept results loads none of them.
 */

import type { FlowKind } from "../document/flow/model.js";
import { kindName } from "../document/flow/readers.js";
import { CiteproofError } from "../errors.js";
import type { EvidenceRecord } from "./evidence-record.js";

/**
 * EVIDENCE_INVALID for the first record whose locator a source of this kind does not have; `printed`
 * says whether it prints page labels (known before it is read for every kind but EPUB).
 */
export function assertFlowLocators(
  kind: FlowKind,
  printed: boolean,
  records: readonly EvidenceRecord[],
  source: string,
): void {
  const has = `${source} is ${kindName(kind)}, which has no pages: name a section (a heading's words or number), or no locator`;
  records.forEach((record, index) => {
    const at = `record ${index}`;
    if (record.kind === "quotation" && record.endPage !== undefined)
      throw invalid(
        `${at}: field "endPage": ${printed ? `${source} is cited by printed page, one page per quotation` : has}`,
        `${at}.endPage`,
      );
    if ((record.kind === "quotation" || record.kind === "page") && record.page !== undefined && !printed)
      throw invalid(`${at}: field "page": ${has}`, `${at}.page`);
    if (record.kind === "quotation" && record.page !== undefined && record.section !== undefined)
      throw invalid(`${at}: give "section" or a printed "page", not both`, `${at}.page`);
  });
}

function invalid(message: string, path: string): CiteproofError {
  return new CiteproofError("EVIDENCE_INVALID", message, { path });
}
