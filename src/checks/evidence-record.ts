/** Evidence records as callers supply them, and their validation. */
import { CiteproofError } from "../errors.js";

export type EvidenceRecord =
  | { id?: string; kind: "quotation"; page?: number; text: string }
  | { id?: string; kind: "page"; page: number }
  | { id?: string; kind: "equation"; label: string }
  | { id?: string; kind: "figure"; label: string };

export const EVIDENCE_KINDS = ["quotation", "page", "equation", "figure"] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** Parses the evidence file's text into records, naming the record index and field of any problem. */
export function parseEvidenceJson(text: string, source = "evidence"): EvidenceRecord[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new CiteproofError("EVIDENCE_NOT_JSON", `${source} is not valid JSON (${detail})`);
  }
  return validateEvidence(value, source);
}

export function validateEvidence(value: unknown, source = "evidence"): EvidenceRecord[] {
  const list = Array.isArray(value)
    ? value
    : isObject(value) && Array.isArray(value.evidence)
      ? value.evidence
      : undefined;
  if (!list) throw invalid(`${source} must be a JSON array of evidence records`);
  return list.map((item, index) => validateRecord(item, index));
}

function validateRecord(item: unknown, index: number): EvidenceRecord {
  const at = `record ${index}`;
  if (!isObject(item)) throw invalid(`${at}: must be an object`);
  const id = item.id;
  if (id !== undefined && typeof id !== "string" && typeof id !== "number") {
    throw invalid(`${at}: field "id" must be a string`);
  }
  const idOut = id === undefined ? undefined : String(id);
  const kind = item.kind;
  if (typeof kind !== "string") throw invalid(`${at}: field "kind" is missing`);
  switch (kind) {
    case "quotation": {
      const text = item.text;
      if (typeof text !== "string") throw invalid(`${at}: field "text" must be a string`);
      if (text.trim().length === 0) throw invalid(`${at}: field "text" is empty`);
      const page = item.page === undefined || item.page === null ? undefined : checkPage(item.page, at);
      return { id: idOut, kind, page, text };
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
      return { id: idOut, kind, label: String(label) };
    }
    default:
      throw invalid(
        `${at}: unknown kind ${JSON.stringify(kind)} (expected one of ${EVIDENCE_KINDS.join(", ")})`,
      );
  }
}

function checkPage(value: unknown, at: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw invalid(`${at}: field "page" must be a positive integer (got ${JSON.stringify(value)})`);
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(message: string): CiteproofError {
  return new CiteproofError("EVIDENCE_INVALID", message);
}
