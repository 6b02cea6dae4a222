/**
 * The located quote check's input: validation of the request document (and of the same options
 * given as flags) against the limits. Every rejection is a usage error naming the field.
 */

import { CiteproofError } from "../../errors.js";
import { didYouMean, firstUnknownField } from "../../util/field-names.js";
import { isObject } from "../../util/json-object.js";
import { shown } from "../../util/shown.js";
import { CITE_CHECK_LIMITS as L } from "./limits.js";
import { NORMALIZATIONS, type Normalization, OCR_MODES, type OcrMode } from "./verdicts.js";

export interface CitationBox {
  left: number;
  bottom: number;
  right: number;
  top: number;
}

export interface Citation {
  id?: string;
  quote: string;
  /** One-based physical page. */
  page: number;
  /** Bottom-left default user space of the page (not relative to the CropBox). */
  bounding_box: CitationBox;
}

export type CiteSource = { path: string } | { url: string };

/** A validated request: every option resolved to its value. */
export interface CiteCheckInput {
  source: CiteSource;
  citations: Citation[];
  normalization: Normalization;
  /** Lower-case hex when given. */
  expectedSha256?: string;
  ocr?: OcrMode;
  timeoutMs: number;
  maxOutputChars: number;
}

/** The options a request carries beside its source and citations, as the request spells them. */
export interface CiteCheckOptionFields {
  normalization?: unknown;
  expected_source_sha256?: unknown;
  ocr?: unknown;
  timeout_ms?: unknown;
  max_output_chars?: unknown;
}

export const OPTION_FIELDS = [
  "normalization",
  "expected_source_sha256",
  "ocr",
  "timeout_ms",
  "max_output_chars",
] as const;

const REQUEST_FIELDS = new Set(["operation", "sources", "citations", ...OPTION_FIELDS]);
const CITATION_FIELDS = new Set(["id", "quote", "page", "bounding_box"]);
const BOX_FIELDS = ["left", "bottom", "right", "top"] as const;

function usage(message: string): CiteproofError {
  return new CiteproofError("USAGE", message);
}

function rejectUnknown(value: Record<string, unknown>, allowed: Set<string>, where: string): void {
  const key = firstUnknownField(value, allowed);
  if (key !== undefined)
    throw usage(`${where}${where ? "." : ""}${key} is not a known field${didYouMean(key, allowed)}`);
}

/** Parses a full request document: `{"operation":"cite_check","sources":[...],"citations":[...],...}`. */
export function parseCiteCheckRequest(value: unknown): CiteCheckInput {
  if (!isObject(value)) throw usage("the request must be a JSON object");
  rejectUnknown(value, REQUEST_FIELDS, "");
  if (value.operation !== "cite_check")
    throw usage(`operation must be "cite_check" (got ${shown(value.operation ?? null)})`);
  return {
    source: parseSources(value.sources),
    citations: parseCitations(value.citations, "citations"),
    ...parseOptions(value),
  };
}

export function parseSources(value: unknown): CiteSource {
  if (!Array.isArray(value) || value.length !== 1)
    throw usage("sources must be an array of exactly one source");
  const s = value[0];
  if (!isObject(s)) throw usage('sources[0] must be an object: {"path": ...} or {"url": ...}');
  rejectUnknown(s, new Set(["path", "url"]), "sources[0]");
  const hasPath = s.path !== undefined;
  const hasUrl = s.url !== undefined;
  if (hasPath === hasUrl) throw usage("sources[0] must have exactly one of path and url");
  if (hasPath) {
    if (typeof s.path !== "string" || s.path.length === 0)
      throw usage("sources[0].path must be a non-empty string");
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s.path))
      throw usage("sources[0].path is a URL; give it as sources[0].url");
    return { path: s.path };
  }
  return { url: parseUrl(s.url, "sources[0].url") };
}

export function parseUrl(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length === 0) throw usage(`${field} must be a non-empty string`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usage(`${field} is not a valid URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw usage(`${field} must be an http or https URL (got ${url.protocol.slice(0, -1)})`);
  return value;
}

/** Validates the citation list: count, quotes, pages, boxes, distinct pages, total quote length. */
export function parseCitations(value: unknown, field = "citations"): Citation[] {
  if (!Array.isArray(value)) throw usage(`${field} must be an array`);
  if (value.length < L.minCitations || value.length > L.maxCitations)
    throw usage(`${field} must hold ${L.minCitations} to ${L.maxCitations} citations (got ${value.length})`);
  const out: Citation[] = [];
  let total = 0;
  const pages = new Set<number>();
  value.forEach((raw, i) => {
    const where = `${field}[${i}]`;
    if (!isObject(raw)) throw usage(`${where} must be an object`);
    rejectUnknown(raw, CITATION_FIELDS, where);
    const citation: Citation = {
      quote: parseQuote(raw.quote, `${where}.quote`),
      page: parsePage(raw.page, `${where}.page`),
      bounding_box: parseBox(raw.bounding_box, `${where}.bounding_box`),
    };
    if (raw.id !== undefined) {
      if (typeof raw.id !== "string") throw usage(`${where}.id must be a string`);
      citation.id = raw.id;
    }
    total += citation.quote.length;
    if (total > L.maxTotalQuoteUtf16)
      throw usage(
        `${field}: the quotes together exceed ${L.maxTotalQuoteUtf16} UTF-16 units (at ${where}.quote, ${total})`,
      );
    pages.add(citation.page);
    if (pages.size > L.maxDistinctPages)
      throw usage(
        `${field}: more than ${L.maxDistinctPages} distinct pages (at ${where}.page, page ${citation.page})`,
      );
    out.push(citation);
  });
  return out;
}

function parseQuote(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length === 0) throw usage(`${field} must be a non-empty string`);
  if (value.length > L.maxQuoteUtf16)
    throw usage(`${field} is ${value.length} UTF-16 units, over the limit of ${L.maxQuoteUtf16}`);
  if (!/\S/u.test(value)) throw usage(`${field} holds only whitespace`);
  return value;
}

function parsePage(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1)
    throw usage(`${field} must be a positive integer (a one-based physical page)`);
  return value;
}

function parseBox(value: unknown, field: string): CitationBox {
  if (!isObject(value)) throw usage(`${field} must be an object {left, bottom, right, top}`);
  rejectUnknown(value, new Set(BOX_FIELDS), field);
  const box = {} as CitationBox;
  for (const key of BOX_FIELDS) {
    const v = value[key];
    if (typeof v !== "number" || !Number.isFinite(v)) throw usage(`${field}.${key} must be a finite number`);
    box[key] = v;
  }
  if (!(box.right > box.left)) throw usage(`${field} must have positive width (right > left)`);
  if (!(box.top > box.bottom)) throw usage(`${field} must have positive height (top > bottom)`);
  return box;
}

/** Resolves the options of a request (fields absent take their defaults). */
export function parseOptions(
  value: CiteCheckOptionFields,
  names: Partial<Record<(typeof OPTION_FIELDS)[number], string>> = {},
): Omit<CiteCheckInput, "source" | "citations"> {
  const name = (f: (typeof OPTION_FIELDS)[number]) => names[f] ?? f;
  const normalization = value.normalization ?? "none";
  if (!(NORMALIZATIONS as readonly unknown[]).includes(normalization))
    throw usage(`${name("normalization")} must be one of ${NORMALIZATIONS.join(", ")}`);
  let expectedSha256: string | undefined;
  if (value.expected_source_sha256 !== undefined) {
    const v = value.expected_source_sha256;
    if (typeof v !== "string" || !/^[0-9a-fA-F]{64}$/.test(v))
      throw usage(`${name("expected_source_sha256")} must be 64 hexadecimal digits`);
    expectedSha256 = v.toLowerCase();
  }
  let ocr: OcrMode | undefined;
  if (value.ocr !== undefined) {
    if (!(OCR_MODES as readonly unknown[]).includes(value.ocr))
      throw usage(`${name("ocr")} must be one of ${OCR_MODES.join(", ")}`);
    ocr = value.ocr as OcrMode;
  }
  const timeoutMs = intInRange(
    value.timeout_ms,
    name("timeout_ms"),
    L.minTimeoutMs,
    L.maxTimeoutMs,
    L.defaultTimeoutMs,
  );
  const maxOutputChars = intInRange(
    value.max_output_chars,
    name("max_output_chars"),
    L.minOutputChars,
    L.maxOutputChars,
    L.defaultOutputChars,
  );
  return {
    normalization: normalization as Normalization,
    ...(expectedSha256 !== undefined ? { expectedSha256 } : {}),
    ...(ocr !== undefined ? { ocr } : {}),
    timeoutMs,
    maxOutputChars,
  };
}

function intInRange(value: unknown, field: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
    throw usage(`${field} must be an integer from ${min} to ${max} (got ${shown(value)})`);
  return value;
}
