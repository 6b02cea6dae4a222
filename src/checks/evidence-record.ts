/** Evidence records as callers supply them, and their validation. */
import { CiteproofError, type ErrorDetails } from "../errors.js";
import { ellipsisParts, everyPartHasWords } from "../text/ellipsis.js";
import { didYouMean, firstUnknownField } from "../util/field-names.js";
import { isObject } from "../util/json-object.js";
import { shown } from "../util/shown.js";

export type EvidenceRecord =
  | { id?: string; kind: "quotation"; page?: number; endPage?: number; section?: string; text: string }
  | { id?: string; kind: "page"; page: number }
  | { id?: string; kind: "equation"; label: string }
  | { id?: string; kind: "figure"; label: string };

export const EVIDENCE_KINDS = ["quotation", "page", "equation", "figure"] as const;

/** The bounds of the evidence records one call checks; past any of them, EVIDENCE_INVALID naming it. */
export const EVIDENCE_LIMITS = {
  maxRecords: 100_000,
  /** UTF-16 units of one quotation's text. */
  maxTextUtf16: 20_000,
  /** UTF-16 units of every quotation's text together. */
  maxTotalTextUtf16: 4_000_000,
  /** UTF-16 units of an id or a label. */
  maxNameUtf16: 1_000,
} as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** The fields each kind of record may carry; any other is refused, never ignored. */
const RECORD_FIELDS: Record<EvidenceKind, ReadonlySet<string>> = {
  quotation: new Set(["id", "kind", "page", "endPage", "section", "text"]),
  page: new Set(["id", "kind", "page"]),
  equation: new Set(["id", "kind", "label"]),
  figure: new Set(["id", "kind", "label"]),
};

/** The fields of the object form of an evidence file, `{"evidence": [...]}`. */
const FILE_FIELDS: ReadonlySet<string> = new Set(["evidence"]);

/** A label given with its keyword: `Figure 2`, `Fig. 2`, `Eq. (3)`, `equation 3`. */
const LABEL_WITH_KEYWORD = /^\s*(figure|fig\.?|eq\.?|eqn\.?|equation)(?=[\s(\d]|$)\s*/iu;

/** Parses the evidence file's text into records, naming the record index and field of any problem. */
export function parseEvidenceJson(text: string, source = "evidence"): EvidenceRecord[] {
  return validateEvidence(parseJsonInput(text, source), source);
}

/** The JSON value of an input file's text, or EVIDENCE_NOT_JSON naming the file. */
export function parseJsonInput(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new CiteproofError("EVIDENCE_NOT_JSON", `${source} is not valid JSON (${detail})`);
  }
}

/**
 * The records of an evidence file given on the command line, refused when there are none: a run that
 * checked nothing would print "exit 0: no record FAILs" and pass a CI gate on an empty or truncated
 * file.
 */
export function parseEvidenceFile(text: string, source: string): EvidenceRecord[] {
  const records = parseEvidenceJson(text, source);
  if (records.length === 0)
    throw invalid(`${source} holds no evidence records: nothing would be checked; give at least one record`);
  return records;
}

export function validateEvidence(value: unknown, source = "evidence"): EvidenceRecord[] {
  const list = Array.isArray(value)
    ? value
    : isObject(value) && Array.isArray(value.evidence)
      ? value.evidence
      : undefined;
  if (!list) throw invalid(`${source} must be a JSON array of evidence records`);
  if (list.length > EVIDENCE_LIMITS.maxRecords)
    throw invalid(`${source} holds ${list.length} records, over the limit of ${EVIDENCE_LIMITS.maxRecords}`, {
      limit: EVIDENCE_LIMITS.maxRecords,
    });
  if (isObject(value)) {
    const unknown = firstUnknownField(value, FILE_FIELDS);
    if (unknown !== undefined)
      throw invalid(`${source}: unknown field ${shown(unknown)}${didYouMean(unknown, FILE_FIELDS)}`);
  }
  const records = list.map((item, index) => validateRecord(item, index));
  let total = 0;
  for (const r of records) if (r.kind === "quotation") total += r.text.length;
  if (total > EVIDENCE_LIMITS.maxTotalTextUtf16)
    throw invalid(
      `${source}: the quotations hold ${total} characters together, over the limit of ${EVIDENCE_LIMITS.maxTotalTextUtf16}`,
      { limit: EVIDENCE_LIMITS.maxTotalTextUtf16 },
    );
  return records;
}

function validateRecord(item: unknown, index: number): EvidenceRecord {
  const at = `record ${index}`;
  if (!isObject(item)) throw invalid(`${at}: must be an object`);
  const id = item.id;
  if (id !== undefined && typeof id !== "string" && typeof id !== "number") {
    throw invalid(`${at}: field "id" must be a string`);
  }
  const idOut = id === undefined ? undefined : String(id);
  if (idOut !== undefined) withinName(idOut, "id", at);
  const kind = item.kind;
  if (typeof kind !== "string") throw invalid(`${at}: field "kind" is missing`);
  const known = RECORD_FIELDS[kind as EvidenceKind] as ReadonlySet<string> | undefined;
  const unknown = known ? firstUnknownField(item, known) : undefined;
  if (known && unknown !== undefined)
    throw invalid(
      `${at}: unknown field ${shown(unknown)} in a ${kind} record${didYouMean(unknown, known)}; its fields are ${[...known].join(", ")}`,
    );
  switch (kind) {
    case "quotation": {
      const text = item.text;
      if (typeof text !== "string") throw invalid(`${at}: field "text" must be a string`);
      if (text.length > EVIDENCE_LIMITS.maxTextUtf16)
        throw invalid(
          `${at}: field "text" is ${text.length} characters, over the limit of ${EVIDENCE_LIMITS.maxTextUtf16}`,
          { path: `${at}.text`, field: "text", limit: EVIDENCE_LIMITS.maxTextUtf16 },
        );
      if (text.trim().length === 0) throw invalid(`${at}: field "text" is empty`);
      const parts = ellipsisParts(text);
      if (parts && !everyPartHasWords(parts))
        throw invalid(`${at}: field "text" has an ellipsis with no words on one side of it`);
      const page = item.page === undefined || item.page === null ? undefined : checkPage(item.page, at);
      const endPage =
        item.endPage === undefined || item.endPage === null
          ? undefined
          : checkEndPage(item.endPage, page, at);
      const section =
        item.section === undefined || item.section === null ? undefined : checkSection(item.section, at);
      return {
        id: idOut,
        kind,
        page,
        ...(endPage !== undefined ? { endPage } : {}),
        ...(section !== undefined ? { section } : {}),
        text,
      };
    }
    case "page":
      if (item.page === undefined || item.page === null) throw invalid(`${at}: field "page" is missing`);
      return { id: idOut, kind, page: checkPage(item.page, at) };
    case "equation":
    case "figure": {
      const label = item.label;
      if (typeof label !== "string" && typeof label !== "number") {
        throw invalid(`${at}: field "label" must be a string`);
      }
      withinName(String(label), "label", at);
      return { id: idOut, kind, label: bareLabel(String(label), kind, at) };
    }
    default:
      throw invalid(`${at}: unknown kind ${shown(kind)} (expected one of ${EVIDENCE_KINDS.join(", ")})`);
  }
}

/** The label as given, refused when it starts with a keyword the label must be given without. */
function bareLabel(label: string, kind: "equation" | "figure", at: string): string {
  const keyword = LABEL_WITH_KEYWORD.exec(label);
  if (!keyword) return label;
  const bare = label
    .slice(keyword[0].length)
    .replace(/^\((.*)\)$/u, "$1")
    .trim();
  throw invalid(
    `${at}: field "label" starts with ${JSON.stringify(keyword[1])}; give the ${kind} label bare, as printed without its keyword or parentheses${bare ? ` (${JSON.stringify(label)} -> ${JSON.stringify(bare)})` : ""}`,
  );
}

function checkPage(value: unknown, at: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw invalid(`${at}: field "page" must be a positive integer (got ${shown(value)})`);
  }
  // Past 2^53 - 1 a number no longer holds the page written (1e+23 + 1 is 1e+23): no file has it.
  if (!Number.isSafeInteger(value))
    throw invalid(
      `${at}: field "page" is past the largest page number, ${Number.MAX_SAFE_INTEGER} (got ${shown(value)})`,
      { field: "page", limit: Number.MAX_SAFE_INTEGER },
    );
  return value;
}

/** A heading's words or number, as a flow source's locator. */
function checkSection(value: unknown, at: string): string {
  // A number is refused: 3.10 would arrive as 3.1.
  if (typeof value !== "string")
    throw invalid(`${at}: field "section" must be a string (a heading's words, its number, or both)`);
  const section = value;
  if (section.trim() === "") throw invalid(`${at}: field "section" is empty`);
  withinName(section, "section", at);
  return section;
}

function withinName(value: string, field: "id" | "label" | "section", at: string): void {
  if (value.length > EVIDENCE_LIMITS.maxNameUtf16)
    throw invalid(
      `${at}: field "${field}" is ${value.length} characters, over the limit of ${EVIDENCE_LIMITS.maxNameUtf16}`,
      { field, limit: EVIDENCE_LIMITS.maxNameUtf16 },
    );
}

/** `endPage` is inclusive and, in this version, the page after `page`: the words run across one break. */
function checkEndPage(value: unknown, page: number | undefined, at: string): number {
  if (typeof value !== "number" || !Number.isInteger(value))
    throw invalid(`${at}: field "endPage" must be an integer (got ${shown(value)})`);
  if (page === undefined) throw invalid(`${at}: field "endPage" needs a "page" to start from`);
  if (value <= page)
    throw invalid(`${at}: field "endPage" must be after "page" (got endPage ${value}, page ${page})`);
  if (value > page + 1)
    throw invalid(
      `${at}: field "endPage" may be at most one past "page" (got endPage ${value}, page ${page})`,
    );
  return value;
}

function invalid(message: string, details?: ErrorDetails): CiteproofError {
  return new CiteproofError("EVIDENCE_INVALID", message, details);
}
