/** The page check: a page pointer is a FLAG when the page exists (its wording is unchecked), else a FAIL. */
import type { PrintedLabels } from "../text/printed-labels.js";
import { pagesPrintedAs, printedAsNote, printedPageEvidence } from "./printed-page.js";
import type { CheckResult } from "./result.js";
import { MIN_QUOTATION_WORDS } from "./verdicts.js";

export function checkPage(
  pageCount: number,
  record: { id?: string; page: number },
  labels: PrintedLabels,
): CheckResult {
  const base = { id: record.id, kind: "page" as const };
  const page = record.page;
  if (page < 1 || page > pageCount) {
    return {
      ...base,
      verdict: "FAIL",
      reason: "no-such-page",
      message: `page ${page} does not exist (the file has ${pageCount} pages)${printedAsNote(labels, page)}`,
      evidence: { page, pageCount, printedPage: null, pagesPrintedAs: pagesPrintedAs(labels, page) },
    };
  }
  return {
    ...base,
    verdict: "FLAG",
    reason: "no-quotation",
    message: `page ${page} exists; no quotation to verify: 0 words, need ${MIN_QUOTATION_WORDS}`,
    evidence: { page, words: 0, ...printedPageEvidence(labels, page) },
  };
}

/**
 * A page written with more digits than a number holds exactly (past 2^53 - 1): no file has it. The
 * message and `evidence.page` keep the digits as written, never a rounded number.
 */
export function checkPageDigits(
  pageCount: number,
  record: { kind: "page" | "quotation"; digits: string; text?: string },
): CheckResult {
  return {
    kind: record.kind,
    verdict: "FAIL",
    reason: "no-such-page",
    message: `page ${record.digits} does not exist (the file has ${pageCount} pages)`,
    evidence: {
      ...(record.text !== undefined ? { quotation: record.text } : {}),
      page: record.digits,
      pageCount,
      printedPage: null,
      pagesPrintedAs: [],
    },
  };
}
