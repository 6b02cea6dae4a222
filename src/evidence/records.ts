/**
 * What agents write into a run's records/ folder, and its schemas:
 *   claims.json       [{id, text, verdict?, literature?, urls?, spans?}]
 *   extractions.json  [{id, evidence_id, literature?, urls?, quotes?, outcomes?, facts?}]
 *   appraisals.json   [{id, evidence_id, literature?, tool?, domains: [{domain, judgement, spans?}]}]
 *   report.json       {title?, body?, footnotes?: [{id, source_id, claim_id?, url?}]}
 * A span is {claim, evidence_id, source_id, start, end, access, excerpt?}: offsets in code points,
 * end exclusive. Only claim labels, ids and offsets are the agent's; everything else is derived.
 */
import { readFileSync } from "node:fs";
import { isObject } from "../util/json-object.js";
import {
  ACCESS_LEVELS,
  type AccessLevel,
  CLAIM_VERDICTS,
  type ClaimVerdict,
  JUDGEMENTS,
  type Judgement,
} from "./reasons.js";
import { RUN_FILES, type RunInfo, runPath } from "./run.js";

export const RECORD_FILES = {
  claims: "claims.json",
  extractions: "extractions.json",
  appraisals: "appraisals.json",
  report: "report.json",
} as const;

export interface SpanRecord {
  claim: string;
  evidence_id: string;
  source_id: string;
  start: number;
  end: number;
  access: AccessLevel;
  /** An excerpt the writer typed; it must equal the re-slice. Never needed. */
  excerpt?: string;
}

/** A span slot in a record: parsed, or the schema problem that stopped it. */
export type SpanSlot = { path: string; span: SpanRecord } | { path: string; problem: string };

/** A unit of a record that can carry spans (the claim itself, an outcome, a fact, a domain). */
export interface ArtifactItem {
  /** Where the item sits in its record: "claim", "outcomes[0]", "facts[2]", "domains[1]". */
  field: string;
  /** Path of the item from the records folder, for messages: "claims[0]", "extractions[1].outcomes[0]". */
  path: string;
  /** Whether the item must carry at least one span. */
  owesSpans: boolean;
  /** Why it owes spans (for the NO_SPANS message). */
  owesBecause: string;
  spans: SpanSlot[];
}

export type RecordKind = "claim" | "extraction" | "appraisal";

export interface Artifact {
  kind: RecordKind;
  /** "claims[0]", "extractions[2]", ... */
  record: string;
  id: string;
  /** The record's own evidence id (extractions and appraisals); each span must name the same. */
  evidenceId: string | null;
  literature: boolean;
  text: string | null;
  verdict: ClaimVerdict | null;
  urls: { path: string; url: string }[];
  typedQuotes: { path: string; text: string }[];
  items: ArtifactItem[];
}

export interface Footnote {
  path: string;
  id: string;
  source_id: string;
  claim_id: string | null;
  url: string | null;
}

export interface SchemaProblem {
  /** "claims[2]", "claims.json", "report.footnotes[0]" ... */
  path: string;
  recordId: string | null;
  message: string;
}

export interface RunRecords {
  artifacts: Artifact[];
  footnotes: Footnote[];
  report: { title: string | null; body: string | null } | null;
  problems: SchemaProblem[];
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const PAPER_ID_PATTERNS: Record<string, RegExp> = {
  pmid: /^pmid:[1-9][0-9]{0,9}$/,
  doi: /^doi:10\.[0-9]{4,9}\/\S+$/i,
  pmcid: /^pmcid:PMC[0-9]{1,10}$/i,
};
const SPAN_KEYS = new Set(["claim", "evidence_id", "source_id", "start", "end", "access", "excerpt"]);

/** Reads and validates every record file of a run. */
export function loadRecords(run: RunInfo): RunRecords {
  const problems: SchemaProblem[] = [];
  const artifacts: Artifact[] = [];
  const claims = readRecordFile(run, RECORD_FILES.claims, "array", problems);
  const extractions = readRecordFile(run, RECORD_FILES.extractions, "array", problems);
  const appraisals = readRecordFile(run, RECORD_FILES.appraisals, "array", problems);
  const report = readRecordFile(run, RECORD_FILES.report, "object", problems);
  parseList(extractions as unknown[] | undefined, "extractions", parseExtraction, artifacts, problems);
  parseList(appraisals as unknown[] | undefined, "appraisals", parseAppraisal, artifacts, problems);
  parseList(claims as unknown[] | undefined, "claims", parseClaim, artifacts, problems);
  const parsedReport = report ? parseReport(report as Record<string, unknown>, problems) : undefined;
  return {
    artifacts,
    footnotes: parsedReport?.footnotes ?? [],
    report: parsedReport ? { title: parsedReport.title, body: parsedReport.body } : null,
    problems,
  };
}

function readRecordFile(
  run: RunInfo,
  name: string,
  shape: "array" | "object",
  problems: SchemaProblem[],
): unknown[] | Record<string, unknown> | undefined {
  let raw: string;
  try {
    raw = readFileSync(runPath(run, RUN_FILES.records, name), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    problems.push({ path: name, recordId: null, message: `${name} cannot be read` });
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    problems.push({ path: name, recordId: null, message: `${name} is not valid JSON` });
    return undefined;
  }
  if (shape === "array" && !Array.isArray(value)) {
    problems.push({ path: name, recordId: null, message: `${name} must hold a JSON array of records` });
    return undefined;
  }
  if (shape === "object" && (typeof value !== "object" || value === null || Array.isArray(value))) {
    problems.push({ path: name, recordId: null, message: `${name} must hold a JSON object` });
    return undefined;
  }
  return value as unknown[] | Record<string, unknown>;
}

class Problem extends Error {}

function parseList(
  list: unknown[] | undefined,
  name: string,
  parse: (value: Record<string, unknown>, path: string) => Artifact,
  out: Artifact[],
  problems: SchemaProblem[],
): void {
  if (!list) return;
  const seen = new Set<string>();
  list.forEach((value, i) => {
    const path = `${name}[${i}]`;
    const id = isObject(value) && typeof value.id === "string" ? value.id : null;
    try {
      if (!isObject(value)) throw new Problem(`${path}: must be an object`);
      const artifact = parse(value, path);
      if (seen.has(artifact.id)) throw new Problem(`${path}.id: ${artifact.id} is used by an earlier record`);
      seen.add(artifact.id);
      out.push(artifact);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      problems.push({ path, recordId: id, message: error.message });
    }
  });
}

function parseClaim(v: Record<string, unknown>, path: string): Artifact {
  onlyFields(v, CLAIM_FIELDS, path, "a claim");
  const id = recordId(v, path);
  const text = nonEmptyString(v.text, `${path}.text`);
  const verdict = v.verdict === undefined ? "supported" : oneOf(v.verdict, CLAIM_VERDICTS, `${path}.verdict`);
  return {
    kind: "claim",
    record: path,
    id,
    evidenceId: null,
    literature: optionalBoolean(v.literature, `${path}.literature`),
    text,
    verdict,
    urls: urls(v.urls, `${path}.urls`),
    typedQuotes: [],
    items: [
      {
        field: "claim",
        path,
        owesSpans: verdict === "supported",
        owesBecause: "a supported claim",
        spans: spanSlots(v.spans, `${path}.spans`),
      },
    ],
  };
}

function parseExtraction(v: Record<string, unknown>, path: string): Artifact {
  onlyFields(v, EXTRACTION_FIELDS, path, "an extraction");
  const id = recordId(v, path);
  const evidenceId = evidenceIdOf(v.evidence_id, `${path}.evidence_id`);
  const items: ArtifactItem[] = [];
  list(v.outcomes, `${path}.outcomes`).forEach((o, i) => {
    const at = `${path}.outcomes[${i}]`;
    if (!isObject(o)) throw new Problem(`${at}: must be an object`);
    nonEmptyString(o.name, `${at}.name`);
    const figures = ["effect", "ci_low", "ci_high", "p_value"].filter((key) => {
      const value = o[key];
      if (value === undefined || value === null) return false;
      if (typeof value !== "number" || !Number.isFinite(value))
        throw new Problem(`${at}.${key}: must be a number or null`);
      return true;
    });
    items.push({
      field: `outcomes[${i}]`,
      path: at,
      owesSpans: figures.length > 0,
      owesBecause: `an outcome with ${figures.join(", ")}`,
      spans: spanSlots(o.spans, `${at}.spans`),
    });
  });
  list(v.facts, `${path}.facts`).forEach((f, i) => {
    const at = `${path}.facts[${i}]`;
    if (!isObject(f)) throw new Problem(`${at}: must be an object`);
    onlyFields(f, ["field", "value", "spans"], at, "a fact");
    nonEmptyString(f.field, `${at}.field`);
    const value = f.value;
    if (value !== null && value !== undefined && !["string", "number", "boolean"].includes(typeof value)) {
      throw new Problem(`${at}.value: must be a string, number, boolean or null`);
    }
    const owes = value !== null && value !== undefined && value !== "";
    items.push({
      field: `facts[${i}]`,
      path: at,
      owesSpans: owes,
      owesBecause: "a non-null factual field",
      spans: spanSlots(f.spans, `${at}.spans`),
    });
  });
  const quotes = list(v.quotes, `${path}.quotes`).map((q, i) => {
    if (typeof q !== "string") throw new Problem(`${path}.quotes[${i}]: must be a string`);
    return { path: `${path}.quotes[${i}]`, text: q };
  });
  return {
    kind: "extraction",
    record: path,
    id,
    evidenceId,
    literature: optionalBoolean(v.literature, `${path}.literature`),
    text: null,
    verdict: null,
    urls: urls(v.urls, `${path}.urls`),
    typedQuotes: quotes,
    items,
  };
}

function parseAppraisal(v: Record<string, unknown>, path: string): Artifact {
  const id = recordId(v, path);
  const evidenceId = evidenceIdOf(v.evidence_id, `${path}.evidence_id`);
  if ("quotes" in v)
    throw new Problem(`${path}.quotes: an appraisal has no quotes field; quotes derive from spans`);
  onlyFields(v, APPRAISAL_FIELDS, path, "an appraisal");
  if (v.tool !== undefined && typeof v.tool !== "string") throw new Problem(`${path}.tool: must be a string`);
  const domains = v.domains;
  if (!Array.isArray(domains)) throw new Problem(`${path}.domains: must be an array`);
  const items = domains.map((d, i): ArtifactItem => {
    const at = `${path}.domains[${i}]`;
    if (!isObject(d)) throw new Problem(`${at}: must be an object`);
    onlyFields(d, ["domain", "judgement", "spans"], at, "a domain");
    nonEmptyString(d.domain, `${at}.domain`);
    const judgement: Judgement = oneOf(d.judgement, JUDGEMENTS, `${at}.judgement`);
    return {
      field: `domains[${i}]`,
      path: at,
      owesSpans: judgement !== "unclear",
      owesBecause: `a '${judgement}' judgement`,
      spans: spanSlots(d.spans, `${at}.spans`),
    };
  });
  return {
    kind: "appraisal",
    record: path,
    id,
    evidenceId,
    literature: optionalBoolean(v.literature, `${path}.literature`),
    text: null,
    verdict: null,
    urls: [],
    typedQuotes: [],
    items,
  };
}

function parseReport(
  v: Record<string, unknown>,
  problems: SchemaProblem[],
): { title: string | null; body: string | null; footnotes: Footnote[] } {
  const title = typeof v.title === "string" ? v.title : null;
  const body = typeof v.body === "string" ? v.body : null;
  if (v.title !== undefined && title === null)
    problems.push({ path: "report.title", recordId: null, message: "report.title: must be a string" });
  if (v.body !== undefined && body === null)
    problems.push({ path: "report.body", recordId: null, message: "report.body: must be a string" });
  const footnotes: Footnote[] = [];
  if (v.footnotes !== undefined && !Array.isArray(v.footnotes)) {
    problems.push({
      path: "report.footnotes",
      recordId: null,
      message: "report.footnotes: must be an array",
    });
    return { title, body, footnotes };
  }
  const seen = new Set<string>();
  ((v.footnotes as unknown[] | undefined) ?? []).forEach((f, i) => {
    const path = `report.footnotes[${i}]`;
    try {
      if (!isObject(f)) throw new Problem(`${path}: must be an object`);
      const id = recordId(f, path);
      onlyFields(f, ["id", "source_id", "claim_id", "url"], path, "a footnote");
      if (seen.has(id)) throw new Problem(`${path}.id: ${id} is used by an earlier footnote`);
      seen.add(id);
      const sourceId = nonEmptyString(f.source_id, `${path}.source_id`);
      const claimId =
        f.claim_id === undefined || f.claim_id === null
          ? null
          : nonEmptyString(f.claim_id, `${path}.claim_id`);
      const url = f.url === undefined || f.url === null ? null : nonEmptyString(f.url, `${path}.url`);
      footnotes.push({ path, id, source_id: sourceId, claim_id: claimId, url });
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      problems.push({
        path,
        recordId: isObject(f) && typeof f.id === "string" ? f.id : null,
        message: error.message,
      });
    }
  });
  return { title, body, footnotes };
}

/** Parses a record's spans. A missing list is an empty one (the item is then diagnosed NO_SPANS if it owes spans). */
function spanSlots(value: unknown, path: string): SpanSlot[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Problem(`${path}: must be an array of spans`);
  return value.map((s, i) => {
    const at = `${path}[${i}]`;
    try {
      return { path: at, span: parseSpan(s, at) };
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      return { path: at, problem: error.message };
    }
  });
}

const CLAIM_FIELDS = ["id", "text", "verdict", "literature", "urls", "spans"];
const EXTRACTION_FIELDS = ["id", "evidence_id", "literature", "urls", "quotes", "outcomes", "facts"];
const APPRAISAL_FIELDS = ["id", "evidence_id", "literature", "tool", "domains"];

/** Refuses a field the record's schema does not have (a typo such as `txt` is never ignored). */
function onlyFields(v: Record<string, unknown>, fields: readonly string[], path: string, what: string): void {
  for (const key of Object.keys(v)) {
    if (!fields.includes(key))
      throw new Problem(`${path}.${key}: not a field of ${what} (${what} has ${fields.join(", ")})`);
  }
}

function parseSpan(s: unknown, at: string): SpanRecord {
  if (!isObject(s)) throw new Problem(`${at}: a span must be an object`);
  for (const key of Object.keys(s)) {
    if (!SPAN_KEYS.has(key))
      throw new Problem(`${at}.${key}: not a span field (a span has ${[...SPAN_KEYS].join(", ")})`);
  }
  const span: SpanRecord = {
    claim: nonEmptyString(s.claim, `${at}.claim`),
    evidence_id: evidenceIdOf(s.evidence_id, `${at}.evidence_id`),
    source_id: nonEmptyString(s.source_id, `${at}.source_id`),
    start: integer(s.start, `${at}.start`),
    end: integer(s.end, `${at}.end`),
    access: oneOf(s.access, ACCESS_LEVELS, `${at}.access`),
  };
  if (s.excerpt !== undefined) {
    if (typeof s.excerpt !== "string") throw new Problem(`${at}.excerpt: must be a string`);
    span.excerpt = s.excerpt;
  }
  return span;
}

/** The kind of paper identifier an evidence id names, or null when it names something else. */
export function paperIdKind(evidenceId: string): "pmid" | "doi" | "pmcid" | null {
  const prefix = evidenceId.slice(0, evidenceId.indexOf(":")).toLowerCase();
  return prefix === "pmid" || prefix === "doi" || prefix === "pmcid" ? prefix : null;
}

function evidenceIdOf(value: unknown, path: string): string {
  const id = nonEmptyString(value, path);
  const kind = paperIdKind(id);
  if (kind && !PAPER_ID_PATTERNS[kind].test(id)) {
    throw new Problem(`${path}: ${JSON.stringify(id)} is not a well-formed ${kind} identifier`);
  }
  if (!/^[a-z][a-z0-9_-]*:\S/i.test(id)) {
    throw new Problem(
      `${path}: ${JSON.stringify(id)} must look like kind:identifier (pmid:..., doi:..., web:...)`,
    );
  }
  return id;
}

function recordId(v: Record<string, unknown>, path: string): string {
  const id = v.id;
  if (typeof id !== "string" || !ID_PATTERN.test(id)) {
    throw new Problem(
      `${path}.id: must be 1-128 letters, digits, '.', '_' or '-' (not starting with a symbol)`,
    );
  }
  return id;
}

function urls(value: unknown, path: string): { path: string; url: string }[] {
  return list(value, path).map((u, i) => {
    if (typeof u !== "string" || u.length === 0) throw new Problem(`${path}[${i}]: must be a URL string`);
    return { path: `${path}[${i}]`, url: u };
  });
}

function list(value: unknown, path: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Problem(`${path}: must be an array`);
  return value;
}

function nonEmptyString(value: unknown, path: string): string {
  if (typeof value !== "string" || value.trim().length === 0)
    throw new Problem(`${path}: must be a non-empty string`);
  return value;
}

function integer(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value))
    throw new Problem(`${path}: must be an integer`);
  return value;
}

function optionalBoolean(value: unknown, path: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw new Problem(`${path}: must be true or false`);
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw new Problem(`${path}: must be one of ${allowed.join(", ")}`);
  }
  return value as T;
}
