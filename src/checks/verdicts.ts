/**
 * Verdicts and reasons of the evidence checks: closed unions, defined once, each with the one
 * thing it promises.
 */

import type { EvidenceKind } from "./evidence-record.js";

export const VERDICTS = ["PASS", "FLAG", "FAIL", "UNANCHORED"] as const;
export type Verdict = (typeof VERDICTS)[number];

export const VERDICT_MEANINGS: Record<Verdict, string> = {
  PASS: "the quoted words are on the named page, or the label is printed as claimed; nothing more",
  FLAG: "the page exists; the wording was not checked (too few words, the page's words are an image, the page could not be read, or the deadline passed first), or a draft's cited source could not be read, be told apart, or is not the work named",
  FAIL: "the words are not on that page, the page does not exist, the label was not found as claimed, or a draft cites a key its bibliography does not hold",
  UNANCHORED: "nothing was checked: no page was named",
};

export const REASONS = [
  "found",
  "found-elided",
  "wrong-page",
  "crosses-page",
  "form-differs",
  "absent",
  "no-such-page",
  "page-unreadable",
  "no-quotation",
  "no-text-layer",
  "no-page",
  "equation-unresolved",
  "equation-evidence-unavailable",
  "unsupported-equation-label",
  "deadline",
  "wrong-section",
  "no-such-section",
  "headings-unreadable",
  "unknown-key",
  "source-unavailable",
  "ambiguous-source",
  "source-mismatch",
] as const;
export type Reason = (typeof REASONS)[number];

/** The one verdict each reason comes with: a result's reason fixes its verdict. */
export const REASON_VERDICTS = {
  found: "PASS",
  "found-elided": "PASS",
  "wrong-page": "FAIL",
  "crosses-page": "FAIL",
  "form-differs": "FAIL",
  absent: "FAIL",
  "no-such-page": "FAIL",
  "page-unreadable": "FLAG",
  "no-quotation": "FLAG",
  "no-text-layer": "FLAG",
  "no-page": "UNANCHORED",
  "equation-unresolved": "FAIL",
  "equation-evidence-unavailable": "FAIL",
  "unsupported-equation-label": "FAIL",
  deadline: "FLAG",
  "wrong-section": "FAIL",
  "no-such-section": "FAIL",
  "headings-unreadable": "FLAG",
  "unknown-key": "FAIL",
  "source-unavailable": "FLAG",
  "ambiguous-source": "FLAG",
  "source-mismatch": "FLAG",
} as const satisfies Record<Reason, Verdict>;
export type VerdictOf<R extends Reason> = (typeof REASON_VERDICTS)[R];

export const REASON_MEANINGS: Record<Reason, string> = {
  found: "the words are on the page",
  "found-elided":
    "the parts around the quotation's ellipses are on the page, in order, as one passage; the message prints the words left out",
  "wrong-page": "the words are on another page, which the evidence names",
  "crosses-page":
    "the words run across a page break, onto the next page or from the previous one; name both pages (endPage)",
  "form-differs": "the same letters and digits are on the page, but a symbol differs; that symbol may matter",
  absent: "the words are not on the page; the evidence shows the closest passage and what differs",
  "no-such-page": "the page does not exist",
  "page-unreadable":
    "the page's text could not be extracted (the engine failed on it), so the words (or the label) were not checked there",
  "no-quotation": "too few words to check (fewer than four), so the page alone was checked",
  "no-text-layer":
    "the page exists, but its words are an image (no text layer, or only a stamp, header or page number over a scan); the wording was not checked",
  "no-page": "no page was named, so nothing was checked",
  "equation-unresolved":
    "no displayed equation was found carrying this label; this is no evidence the paper lacks it",
  "equation-evidence-unavailable":
    "the stored extraction record predates equation records; start a new session",
  "unsupported-equation-label":
    "the label is in a form the check does not know (a range, a list, parentheses)",
  deadline:
    "not decided: the deadline passed before the extraction, the layout rules or OCR the record needed had finished; the message names the pages not read and a longer deadline to try (the setting `timeout_ms`, named as each interface names it); never kept in the cache",
  "wrong-section":
    "the words are in the source but not under the heading named; the evidence names the heading chain they stand under (`2 Methods > 2.1 Data`)",
  "no-such-section": "no heading of the source reads as the section named; the evidence lists its headings",
  "headings-unreadable":
    "a section was named on a PDF whose layout shows no section heading, whose heading numbers skip one where that section ends, or where a line set apart by its face or size alone (maybe a heading, maybe the body's) stands between the heading and the words or is the one named, so the section could not be told; the words were not checked",
  "unknown-key": "a draft's citation names a work the bibliography does not hold; nothing was checked",
  "source-unavailable":
    "the bibliography's entry names no source that could be read: no file or URL, a file outside the allowed roots or unreadable, a kind not read, or a URL not fetched (the message says which); nothing was checked",
  "ambiguous-source":
    "an author-year citation fits more than one entry of the bibliography (the message names them); nothing was checked",
  "source-mismatch":
    "the words are in the file the entry binds, but that file is not the work the entry names (its title or DOI differs)",
};

/** Fewer words than this is never a PASS: the page alone is checked, as a FLAG. */
export const MIN_QUOTATION_WORDS = 4;

/**
 * Where a reason's general meaning speaks of words but the record is an anchor or a bare page, the
 * meaning in that record's own terms.
 */
const KIND_REASON_MEANINGS: Partial<Record<EvidenceKind, Partial<Record<Reason, string>>>> = {
  equation: { found: "the label is printed beside a displayed equation" },
  figure: {
    found: "a figure caption carries the label",
    absent: "no figure caption carries the label; this is no evidence the paper lacks the figure",
  },
  page: { "no-quotation": "a page pointer alone: the page exists, and nothing on it was checked" },
};

/** What a reason means for a record of this kind. */
export function reasonMeaning(kind: EvidenceKind, reason: Reason): string {
  return KIND_REASON_MEANINGS[kind]?.[reason] ?? REASON_MEANINGS[reason];
}
