/**
 * The closed vocabularies of evidence runs: snapshot access and origin, event types, and the reason
 * codes the assembler gives an artifact it does not accept. Each value has one meaning.
 */

export const ACCESS_LEVELS = ["full_text", "abstract", "preprint", "guideline", "web"] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
export const ACCESS_MEANINGS: Record<AccessLevel, string> = {
  full_text: "the complete text of the work",
  abstract: "the abstract only: supports what the abstract states, nothing more",
  preprint: "a preprint, not the version of record",
  guideline: "a guideline or policy document",
  web: "a web page",
};

export const ORIGINS = [
  "pubmed",
  "pmc",
  "europepmc",
  "unpaywall",
  "oa-pdf",
  "user-supplied-pdf",
  "user-supplied-file",
  "web",
] as const;
export type Origin = (typeof ORIGINS)[number];
export const ORIGIN_MEANINGS: Record<Origin, string> = {
  pubmed: "a PubMed record",
  pmc: "a PubMed Central full text",
  europepmc: "a Europe PMC full text",
  unpaywall: "an open-access copy located through Unpaywall",
  "oa-pdf": "an open-access PDF retrieved from a URL",
  "user-supplied-pdf": "a PDF the user handed over as bytes; fresh through its hash-checked local file",
  "user-supplied-file":
    "a source of another kind (HTML, Markdown, text, EPUB, DOCX, ODT, JATS) the user handed over as bytes; fresh through its hash-checked local file",
  web: "any other web retrieval",
};

export const EVENT_TYPES = ["fetch", "local_pdf", "local_file", "register", "read"] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const EVENT_MEANINGS: Record<EventType, string> = {
  fetch: "a real retrieval performed in this run",
  local_pdf: "a hash-checked user-supplied PDF",
  local_file: "a hash-checked user-supplied file of another kind than PDF, its text as the checks read it",
  register: "text obtained elsewhere, stored without a new retrieval (never fresh)",
  read: "a bounded window read, for the audit trail only",
};

export const REASON_CODES = [
  "UNKNOWN_SOURCE",
  "SNAPSHOT_HASH_MISMATCH",
  "SPAN_OUT_OF_RANGE",
  "SPAN_TOO_LONG",
  "EXCERPT_MISMATCH",
  "NO_SPANS",
  "URL_NOT_RETRIEVED",
  "NO_FRESH_FETCH",
  "UNSUPPORTED_VERDICT",
  "SOURCE_OUTSIDE_ACCEPTED",
  "NO_PAPER_ID",
  "ASSET_HASH_MISMATCH",
  "ACCESS_MISMATCH",
  "SCHEMA_ERROR",
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export const REASON_MEANINGS: Record<ReasonCode, string> = {
  UNKNOWN_SOURCE:
    "the span names a source_id this run has no snapshot for (or one registered for other evidence)",
  SNAPSHOT_HASH_MISMATCH: "the snapshot's source_id, content_hash or metadata_hash no longer recomputes",
  SPAN_OUT_OF_RANGE: "the span's offsets are not 0 <= start < end <= the text's length in code points",
  SPAN_TOO_LONG: "the span covers more than 2000 code points (never truncated)",
  EXCERPT_MISMATCH: "a written excerpt or quote differs from the text re-sliced from the snapshot",
  NO_SPANS: "the record owes spans (a value, an outcome figure, a judgement) and carries none",
  URL_NOT_RETRIEVED: "a URL the artifact cites was not retrieved by a fetch in this run for its sources",
  NO_FRESH_FETCH: "a source backing the artifact has no fresh retrieval logged in this run",
  UNSUPPORTED_VERDICT: "the verifier's verdict on the claim is not 'supported'",
  SOURCE_OUTSIDE_ACCEPTED: "the report cites a source that backs no accepted evidence",
  NO_PAPER_ID: "a literature claim does not trace to a PMID, DOI or PMCID the snapshot agrees with",
  ASSET_HASH_MISMATCH: "the PDF file behind the snapshot is missing, changed, or was never recorded",
  ACCESS_MISMATCH: "the span's access level differs from the snapshot's",
  SCHEMA_ERROR: "the record or span does not fit its schema",
};

export const CHECK_IDS = ["C-SNAPSHOT", "C-SPAN", "C-FRESH-FETCH", "C-ASSEMBLER"] as const;
export type CheckId = (typeof CHECK_IDS)[number];
export const CHECK_MEANINGS: Record<CheckId, string> = {
  "C-SNAPSHOT": "every snapshot in the run re-reads with all its digests recomputing",
  "C-SPAN": "every span resolves to a known snapshot, in range and length, with matching access and excerpt",
  "C-FRESH-FETCH":
    "every source behind the evidence was retrieved fresh in this run (or is a checked local PDF)",
  "C-ASSEMBLER":
    "result.json matches a fresh assembly of the run and no record was rejected for its own content",
};

/** The check under which each reason code is reported. */
export const REASON_CHECK: Record<ReasonCode, CheckId> = {
  UNKNOWN_SOURCE: "C-SPAN",
  SNAPSHOT_HASH_MISMATCH: "C-SNAPSHOT",
  SPAN_OUT_OF_RANGE: "C-SPAN",
  SPAN_TOO_LONG: "C-SPAN",
  EXCERPT_MISMATCH: "C-SPAN",
  NO_SPANS: "C-ASSEMBLER",
  URL_NOT_RETRIEVED: "C-FRESH-FETCH",
  NO_FRESH_FETCH: "C-FRESH-FETCH",
  UNSUPPORTED_VERDICT: "C-ASSEMBLER",
  SOURCE_OUTSIDE_ACCEPTED: "C-ASSEMBLER",
  NO_PAPER_ID: "C-ASSEMBLER",
  ASSET_HASH_MISMATCH: "C-FRESH-FETCH",
  ACCESS_MISMATCH: "C-SPAN",
  SCHEMA_ERROR: "C-ASSEMBLER",
};

/** Snapshot and span tamper failures: they block promotion whatever the gate flag says. */
export function isIntegrityFailure(code: ReasonCode): boolean {
  const check = REASON_CHECK[code];
  return check === "C-SNAPSHOT" || check === "C-SPAN";
}

export const CLAIM_VERDICTS = ["supported", "unsupported", "unverifiable"] as const;
export type ClaimVerdict = (typeof CLAIM_VERDICTS)[number];

export const JUDGEMENTS = ["low", "some_concerns", "high", "unclear"] as const;
export type Judgement = (typeof JUDGEMENTS)[number];

/** Most code points one span may cover. */
export const MAX_SPAN_CODE_POINTS = 2000;
/** Default and largest window of a verified read, in code points. */
export const DEFAULT_READ_CODE_POINTS = 4000;
export const MAX_READ_CODE_POINTS = 20_000;
