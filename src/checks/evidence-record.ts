/** Evidence records as callers supply them: their one schema, and reading them from a file. */
import { z } from "zod";
import { CiteproofError, type ErrorDetails } from "../errors.js";
import { ellipsisParts, everyPartHasWords } from "../text/ellipsis.js";
import { didYouMean, firstUnknownField } from "../util/field-names.js";
import { isObject } from "../util/json-object.js";
import { parseInput } from "../util/parse-input.js";
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

/** The fields of the object form of an evidence file, `{"evidence": [...]}`. */
const FILE_FIELDS: ReadonlySet<string> = new Set(["evidence"]);

/** A label given with its keyword: `Figure 2`, `Fig. 2`, `Eq. (3)`, `equation 3`. */
const LABEL_WITH_KEYWORD = /^\s*(figure|fig\.?|eq\.?|eqn\.?|equation)(?=[\s(\d]|$)\s*/iu;

const E = EVIDENCE_LIMITS;

/** An id or a label: a string or a number, at most maxNameUtf16 units as written. */
const nameField = z.union([z.string(), z.number()]).refine((v) => String(v).length <= E.maxNameUtf16, {
  error: (issue) => `is ${String(issue.input).length} characters, over the limit of ${E.maxNameUtf16}`,
  params: { limit: E.maxNameUtf16 },
});

const idField = nameField.optional().describe("your identifier, echoed in the result");

const pageField = z.int().min(1);

/** A label as printed, without its keyword or parentheses. */
function labelField(kind: "equation" | "figure") {
  return nameField
    .check((ctx) => {
      const label = String(ctx.value);
      const keyword = LABEL_WITH_KEYWORD.exec(label);
      if (!keyword) return;
      const bare = label
        .slice(keyword[0].length)
        .replace(/^\((.*)\)$/u, "$1")
        .trim();
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `starts with ${JSON.stringify(keyword[1])}; give the ${kind} label bare, as printed without its keyword or parentheses${bare ? ` (${JSON.stringify(label)} -> ${JSON.stringify(bare)})` : ""}`,
      });
    })
    .describe(`the bare ${kind} label, as printed (no parentheses, no keyword)`);
}

/** Quoted words: not blank, and an ellipsis with words on both sides of it. */
const quotedText = z
  .string()
  .max(E.maxTextUtf16)
  .refine((text) => text.trim().length > 0, { error: "is empty" })
  .refine(
    (text) => {
      const parts = ellipsisParts(text);
      return !parts || everyPartHasWords(parts);
    },
    { error: "has an ellipsis with no words on one side of it" },
  )
  .describe("the quoted words");

const quotationRecord = z
  .strictObject({
    id: idField,
    kind: z.literal("quotation"),
    page: pageField.nullish().describe("the physical page the words are on (the first page is 1)"),
    endPage: pageField
      .nullish()
      .describe("the page the words run onto (page + 1), when they cross a page break"),
    // A number is refused: 3.10 would arrive as 3.1.
    section: z
      .string()
      .max(E.maxNameUtf16)
      .refine((s) => s.trim() !== "", { error: "is empty" })
      .nullish()
      .describe("the section the words are in: a heading's words, its number, or both"),
    text: quotedText,
  })
  .check((ctx) => {
    const { page, endPage } = ctx.value;
    if (endPage === undefined || endPage === null) return;
    const problem =
      page === undefined || page === null
        ? 'needs a "page" to start from'
        : endPage <= page
          ? `must be after "page" (got endPage ${endPage}, page ${page})`
          : endPage > page + 1
            ? `may be at most one past "page" (got endPage ${endPage}, page ${page})`
            : undefined;
    if (problem) ctx.issues.push({ code: "custom", input: endPage, path: ["endPage"], message: problem });
  });

const pageRecord = z.strictObject({ id: idField, kind: z.literal("page"), page: pageField });
const equationRecord = z.strictObject({
  id: idField,
  kind: z.literal("equation"),
  label: labelField("equation"),
});
const figureRecord = z.strictObject({ id: idField, kind: z.literal("figure"), label: labelField("figure") });

/**
 * One evidence record, the one rule for every interface and the library: its kind names its fields
 * (any other is refused, never ignored) and what each must hold.
 */
export const evidenceRecordSchema = z
  .discriminatedUnion("kind", [pageRecord, quotationRecord, equationRecord, figureRecord])
  .describe(
    'One evidence record: {"kind":"quotation","page":3,"text":"..."} (add "endPage":4 when the words run onto the next page), {"kind":"page","page":2}, ' +
      '{"kind":"equation","label":"2.1"} or {"kind":"figure","label":"3"}; optional "id". Pages are ' +
      "physical (the first page is 1); labels are bare (no parentheses, no 'Figure').",
  );

/** The records of one call: at most maxRecords, their quotations at most maxTotalTextUtf16 together. */
export const evidenceListSchema = z
  .array(evidenceRecordSchema)
  .max(E.maxRecords)
  .check((ctx) => {
    let total = 0;
    for (const r of ctx.value) if (r.kind === "quotation") total += r.text.length;
    if (total > E.maxTotalTextUtf16)
      ctx.issues.push({
        code: "custom",
        input: total,
        params: { limit: E.maxTotalTextUtf16 },
        message: `holds quotations of ${total} characters together, over the limit of ${E.maxTotalTextUtf16}`,
      });
  })
  .describe("the evidence records to check");

/** A record as the schema reads it (ids and labels as given, a left-out page as null or absent). */
export type EvidenceRecordInput = z.infer<typeof evidenceRecordSchema>;

/** Records the schema read, as the checks take them: ids and labels as strings, no nulls. */
export function toEvidenceRecords(list: readonly EvidenceRecordInput[]): EvidenceRecord[] {
  return list.map((r) => {
    const id = r.id === undefined ? undefined : String(r.id);
    switch (r.kind) {
      case "quotation": {
        const page = r.page ?? undefined;
        const endPage = r.endPage ?? undefined;
        const section = r.section ?? undefined;
        return {
          id,
          kind: r.kind,
          page,
          ...(endPage !== undefined ? { endPage } : {}),
          ...(section !== undefined ? { section } : {}),
          text: r.text,
        };
      }
      case "page":
        return { id, kind: r.kind, page: r.page };
      default:
        return { id, kind: r.kind, label: String(r.label) };
    }
  });
}

const EVIDENCE_INPUT = {
  object: z.strictObject({ evidence: evidenceListSchema }),
  fieldCodes: { evidence: "EVIDENCE_INVALID" as const },
};

/** Parses the evidence file's text into records, naming the record index and field of any problem. */
export function parseEvidenceJson(text: string, source = "evidence"): EvidenceRecord[] {
  return validateEvidence(parseJsonInput(text, source), source);
}

/**
 * The records of an evidence file's text, unread: the JSON array (or `{"evidence": [...]}`) handed on
 * as it is, for the operation's schema to read (the one place records are validated). A file with no
 * records is refused: a run that checked nothing would print "exit 0: no record FAILs" and pass a CI
 * gate on an empty or truncated file.
 */
export function evidenceFileList(text: string, source: string): unknown[] {
  const list = evidenceList(parseJsonInput(text, source), source);
  if (list.length === 0)
    throw invalid(`${source} holds no evidence records: nothing would be checked; give at least one record`);
  return list;
}

/** An evidence file's records, read by their schema; none is refused (see evidenceFileList). */
export function parseEvidenceFile(text: string, source: string): EvidenceRecord[] {
  return validateEvidence(evidenceFileList(text, source), source);
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
 * The list of an evidence file's value: an array of records, or `{"evidence": [...]}`; anything else
 * is EVIDENCE_INVALID naming the file. The records themselves are the schema's to read.
 */
export function evidenceList(value: unknown, source = "evidence"): unknown[] {
  const list = Array.isArray(value)
    ? value
    : isObject(value) && Array.isArray(value.evidence)
      ? value.evidence
      : undefined;
  if (!list) throw invalid(`${source} must be a JSON array of evidence records`);
  // Counted before any record is read, so a list of millions is refused at once.
  if (list.length > E.maxRecords)
    throw invalid(`${source} holds ${list.length} records, over the limit of ${E.maxRecords}`, {
      limit: E.maxRecords,
    });
  if (isObject(value)) {
    const unknown = firstUnknownField(value, FILE_FIELDS);
    if (unknown !== undefined)
      throw invalid(`${source}: unknown field ${shown(unknown)}${didYouMean(unknown, FILE_FIELDS)}`);
  }
  return list;
}

/**
 * Evidence records read by their schema: every problem reported (EVIDENCE_INVALID), each naming its
 * field by its path (`evidence[3].page`).
 */
export function validateEvidence(value: unknown, source = "evidence"): EvidenceRecord[] {
  const { evidence } = parseInput(source, EVIDENCE_INPUT, { evidence: evidenceList(value, source) });
  return toEvidenceRecords(evidence);
}

function invalid(message: string, details?: ErrorDetails): CiteproofError {
  return new CiteproofError("EVIDENCE_INVALID", message, details);
}
