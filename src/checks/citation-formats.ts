/**
 * Citations other tools emit, read as evidence records: the citation blocks of Anthropic's Messages
 * API (`page_location`: `cited_text` on pages `start_page_number` (1-based) up to `end_page_number`,
 * which is exclusive) and W3C Web Annotations whose target has a `TextQuoteSelector` (`exact`, with
 * optional `prefix` and `suffix`) and optionally a page. Each record keeps where it came from in the
 * input (`index`, and `at`, the path of the citation), so a result can be traced back to it. Anything
 * else is a coded error naming the field.
 */
import { CiteproofError } from "../errors.js";
import { ellipsisParts, everyPartHasWords } from "../text/ellipsis.js";
import { isObject } from "../util/json-object.js";
import type { EvidenceRecord } from "./evidence-record.js";
import type { FlowVerifyReport } from "./flow-verify.js";
import type { CheckResult } from "./result.js";
import type { VerifyReport } from "./verify.js";

export const CITATIONS_FORMATS = ["anthropic", "w3c"] as const;
export type CitationsFormat = (typeof CITATIONS_FORMATS)[number];

export interface CitationInput {
  /** Position of the citation in the input, counting every citation read (0-based). */
  index: number;
  /** Where it is in the input: `citations[2]`, `content[1].citations[0]`, `[3].target.selector`. */
  at: string;
  record: Extract<EvidenceRecord, { kind: "quotation" }>;
  /** W3C only: the selector's context, checked beside the words (evidence, not verdict). */
  prefix?: string;
  suffix?: string;
  /** W3C only: a TextPositionSelector's code-point offsets, compared with a flow source's match (evidence). */
  position?: { start: number; end: number };
}

export interface ParsedCitations {
  citations: CitationInput[];
  /** Anthropic citations of another document of the request than the one checked. */
  skipped: { index: number; at: string; documentIndex: number }[];
}

/** Rejects a format citeproof does not read, naming where it was given (`--citations-format`). */
export function citationsFormat(value: string, field: string): CitationsFormat {
  if (!(CITATIONS_FORMATS as readonly string[]).includes(value))
    throw new CiteproofError(
      "USAGE",
      `${field} must be one of ${CITATIONS_FORMATS.join(", ")} (got ${JSON.stringify(value)})`,
    );
  return value as CitationsFormat;
}

/**
 * The citations of a parsed JSON value. `root` begins every field path in messages: "" for a file
 * (`[0].cited_text`), "citations" for a tool's argument (`citations[0].cited_text`).
 */
export function readCitations(
  value: unknown,
  format: CitationsFormat,
  documentIndex = 0,
  root = "",
): ParsedCitations {
  return format === "anthropic" ? anthropicCitations(value, documentIndex, root) : w3cCitations(value, root);
}

/** `root` then `key`: `content`, `citations.content`. */
function child(root: string, key: string): string {
  return root === "" ? key : `${root}.${key}`;
}

/** What the whole value is called in a message. */
function whole(root: string, format: CitationsFormat): string {
  return root === ""
    ? `a${format === "anthropic" ? "n" : ""} ${format} citations file`
    : `argument "${root}"`;
}

function invalid(message: string): CiteproofError {
  return new CiteproofError("EVIDENCE_INVALID", message);
}

function quotationText(value: unknown, at: string): string {
  if (typeof value !== "string") throw invalid(`${at} must be a string`);
  if (value.trim().length === 0) throw invalid(`${at} is empty`);
  const parts = ellipsisParts(value);
  if (parts && !everyPartHasWords(parts))
    throw invalid(`${at} has an ellipsis with no words on one side of it`);
  return value;
}

/**
 * The citations of an Anthropic response: a list of citation objects, a list of content blocks, or a
 * Messages API response (its `content`); blocks other than text, and text without citations, hold none.
 */
function anthropicCitations(value: unknown, documentIndex: number, root: string): ParsedCitations {
  const found: { at: string; citation: unknown }[] = [];
  const response = isObject(value) && Array.isArray(value.content);
  const blocks = response ? (value.content as unknown[]) : value;
  const prefix = response ? child(root, "content") : root;
  if (!Array.isArray(blocks))
    throw invalid(
      `${whole(root, "anthropic")} must be a Messages API response, a list of its content blocks, or a list of citations`,
    );
  blocks.forEach((item, i) => {
    const at = `${prefix}[${i}]`;
    if (isObject(item) && item.type === "text") {
      if (item.citations === undefined || item.citations === null) return;
      if (!Array.isArray(item.citations)) throw invalid(`${at}.citations must be a list`);
      item.citations.forEach((citation, k) => {
        found.push({ at: `${at}.citations[${k}]`, citation });
      });
    } else if (
      isObject(item) &&
      typeof item.type === "string" &&
      item.type !== "text" &&
      !("cited_text" in item)
    ) {
      // Tool use, thinking and other blocks cite nothing.
    } else found.push({ at, citation: item });
  });
  const out: ParsedCitations = { citations: [], skipped: [] };
  found.forEach(({ at, citation }, index) => {
    if (!isObject(citation)) throw invalid(`${at} must be a citation object`);
    const doc = citation.document_index ?? 0;
    if (typeof doc !== "number" || !Number.isInteger(doc) || doc < 0)
      throw invalid(`${at}.document_index must be a non-negative integer (got ${JSON.stringify(doc)})`);
    if (doc !== documentIndex) {
      out.skipped.push({ index, at, documentIndex: doc });
      return;
    }
    if (citation.type !== "page_location")
      throw invalid(
        `${at}.type must be "page_location" (a PDF's citations; got ${JSON.stringify(citation.type)})`,
      );
    const text = quotationText(citation.cited_text, `${at}.cited_text`);
    const start = citation.start_page_number;
    if (typeof start !== "number" || !Number.isInteger(start) || start < 1)
      throw invalid(`${at}.start_page_number must be a positive integer (got ${JSON.stringify(start)})`);
    const end = citation.end_page_number;
    if (typeof end !== "number" || !Number.isInteger(end) || end <= start)
      throw invalid(
        `${at}.end_page_number must be an integer after start_page_number (it is exclusive; got ${JSON.stringify(end)})`,
      );
    if (end > start + 2)
      throw invalid(
        `${at}.end_page_number spans ${end - start} pages (${start} to ${end - 1}); at most two are checked`,
      );
    out.citations.push({
      index,
      at,
      record: {
        id: `${index}`,
        kind: "quotation",
        page: start,
        ...(end - 1 > start ? { endPage: end - 1 } : {}),
        text,
      },
    });
  });
  return out;
}

const PAGE_FRAGMENT = /(?:^|[#&])page=(\d+)(?:$|&)/;

/** W3C Web Annotations: one, a list, or a page or collection of them (`items`). */
function w3cCitations(value: unknown, root: string): ParsedCitations {
  const list = Array.isArray(value)
    ? value
    : isObject(value) && Array.isArray(value.items)
      ? value.items
      : isObject(value) && isObject(value.first) && Array.isArray(value.first.items)
        ? value.first.items
        : isObject(value)
          ? [value]
          : undefined;
  if (!list)
    throw invalid(`${whole(root, "w3c")} must be a Web Annotation, a list of them, or a collection of them`);
  const single = !Array.isArray(value) && isObject(value) && !value.items && !value.first;
  const prefix = Array.isArray(value)
    ? root
    : isObject(value) && value.items
      ? child(root, "items")
      : child(root, "first.items");
  const citations = list.map((annotation, index) => {
    const at = single ? (root === "" ? "annotation" : root) : `${prefix}[${index}]`;
    return w3cCitation(annotation, index, at);
  });
  return { citations, skipped: [] };
}

function w3cCitation(annotation: unknown, index: number, at: string): CitationInput {
  if (!isObject(annotation)) throw invalid(`${at} must be an annotation object`);
  const targets = Array.isArray(annotation.target) ? annotation.target : [annotation.target];
  for (let t = 0; t < targets.length; t++) {
    const target = targets[t];
    const targetAt = Array.isArray(annotation.target) ? `${at}.target[${t}]` : `${at}.target`;
    if (!isObject(target)) continue;
    const selectors = Array.isArray(target.selector) ? target.selector : [target.selector];
    const chain = selectors.flatMap((s) => refinements(s));
    const quote = chain.find((s) => s.type === "TextQuoteSelector");
    if (!quote) continue;
    const text = quotationText(quote.exact, `${targetAt}.selector (TextQuoteSelector).exact`);
    const page = pageOf(chain, quote, target, targetAt);
    const context = (field: "prefix" | "suffix") => {
      const v = quote[field];
      if (v === undefined || v === null || v === "") return {};
      if (typeof v !== "string")
        throw invalid(`${targetAt}.selector (TextQuoteSelector).${field} must be a string`);
      return { [field]: v };
    };
    const position = positionOf(chain, selectors, targetAt);
    return {
      index,
      at: targetAt,
      ...(position ? { position } : {}),
      record: {
        id: typeof annotation.id === "string" ? annotation.id : `${index}`,
        kind: "quotation",
        ...(page !== undefined ? { page } : {}),
        text,
      },
      ...context("prefix"),
      ...context("suffix"),
    };
  }
  throw invalid(`${at}.target has no TextQuoteSelector`);
}

/** A TextPositionSelector beside the quote (in the chain or the target's list): its code-point offsets. */
function positionOf(
  chain: Record<string, unknown>[],
  selectors: unknown[],
  at: string,
): { start: number; end: number } | undefined {
  const all = [...chain, ...selectors.flatMap((s) => refinements(s))];
  const selector = all.find((s) => s.type === "TextPositionSelector");
  if (!selector) return undefined;
  const { start, end } = selector;
  const where = `${at}.selector (TextPositionSelector)`;
  if (!Number.isSafeInteger(start) || (start as number) < 0)
    throw invalid(`${where}.start must be a non-negative integer (got ${JSON.stringify(start)})`);
  if (!Number.isSafeInteger(end) || (end as number) < (start as number))
    throw invalid(`${where}.end must be an integer at or after start (got ${JSON.stringify(end)})`);
  return { start: start as number, end: end as number };
}

/** A selector and the selectors refining it, in order. */
function refinements(selector: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let s = selector; isObject(s); s = s.refinedBy) out.push(s);
  return out;
}

/** The page: a FragmentSelector `page=N` (RFC 3778) beside or above the quote, or a `page` field. */
function pageOf(
  chain: Record<string, unknown>[],
  quote: Record<string, unknown>,
  target: Record<string, unknown>,
  at: string,
): number | undefined {
  for (const s of chain) {
    if (s.type !== "FragmentSelector" || typeof s.value !== "string") continue;
    const m = PAGE_FRAGMENT.exec(s.value);
    if (m) return positivePage(Number(m[1]), `${at}.selector (FragmentSelector).value`);
  }
  for (const [holder, where] of [
    [quote, `${at}.selector (TextQuoteSelector).page`],
    [target, `${at}.page`],
  ] as const) {
    if (holder.page !== undefined && holder.page !== null) return positivePage(holder.page, where);
  }
  return undefined;
}

function positivePage(value: unknown, at: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
    throw invalid(`${at} must be a positive integer page (got ${JSON.stringify(value)})`);
  return value;
}

/** A verify result traced back to the citation it checks. */
export type CitationResult = CheckResult & {
  index: number;
  at: string;
  /**
   * W3C only: the selector's context as given and, when the words PASS on their page, whether the
   * prefix and suffix stand beside them there (`context`: evidence; the verdict is the words').
   */
  selector?: {
    prefix?: string;
    suffix?: string;
    context?: "found" | "not-found";
    /**
     * On a flow source, a TextPositionSelector's offsets as given and, when the words PASS, whether a
     * match stands exactly there (`position`: evidence; offsets count code points of the source's text).
     */
    start?: number;
    end?: number;
    position?: "found" | "not-found";
  };
};

export interface CitationsReport {
  document: VerifyReport["document"] | FlowVerifyReport["document"];
  results: CitationResult[];
  skipped: ParsedCitations["skipped"];
}

function hasContext(c: CitationInput): boolean {
  return c.prefix !== undefined || c.suffix !== undefined;
}

/** Whether the words are checked again with their context: on a PDF only when a page is named. */
function withContext(c: CitationInput, flow: boolean): boolean {
  return hasContext(c) && (flow || c.record.page !== undefined);
}

/**
 * The records to verify: each citation's, then, for each W3C selector with a prefix or suffix and a
 * page (on a flow source, `flow`, any: the whole document is its place), the words with their context
 * (prefix + exact + suffix is the document's own text there).
 */
export function citationRecords(parsed: ParsedCitations, flow = false): EvidenceRecord[] {
  const records: EvidenceRecord[] = parsed.citations.map((c) => c.record);
  for (const c of parsed.citations)
    if (withContext(c, flow))
      records.push({ ...c.record, text: `${c.prefix ?? ""}${c.record.text}${c.suffix ?? ""}` });
  return records;
}

/** The verify report of `citationRecords`, each result with its citation's place in the input. */
export function traceResults(
  report: { document: CitationsReport["document"]; results: CheckResult[] },
  parsed: ParsedCitations,
  flow = false,
): CitationsReport {
  let next = parsed.citations.length;
  const results = parsed.citations.map((c, i): CitationResult => {
    const result = report.results[i];
    const traced = { index: c.index, at: c.at, ...result };
    const position = flow && c.position ? positionFound(result, c.position) : undefined;
    if (!hasContext(c) && !(flow && c.position)) return traced;
    const contextResult = withContext(c, flow) ? report.results[next++] : undefined;
    const context =
      contextResult && result.verdict === "PASS"
        ? contextResult.verdict === "PASS"
          ? ("found" as const)
          : ("not-found" as const)
        : undefined;
    const notes = [
      ...(context === "not-found"
        ? ["the selector's prefix and suffix do not stand beside these words"]
        : []),
      ...(position === "not-found" ? ["no match stands at the TextPositionSelector's offsets"] : []),
    ];
    return {
      ...traced,
      ...(notes.length > 0 ? { message: `${result.message}; ${notes.join("; ")}` } : {}),
      selector: {
        ...(c.prefix !== undefined ? { prefix: c.prefix } : {}),
        ...(c.suffix !== undefined ? { suffix: c.suffix } : {}),
        ...(context ? { context } : {}),
        ...(flow && c.position ? { start: c.position.start, end: c.position.end } : {}),
        ...(position ? { position } : {}),
      },
    };
  });
  return { document: report.document, results, skipped: parsed.skipped };
}

/** Whether a PASS's match (one of them, or an elided quotation's first to last part) stands at the offsets. */
function positionFound(
  result: CheckResult,
  at: { start: number; end: number },
): "found" | "not-found" | undefined {
  if (result.verdict !== "PASS") return undefined;
  const spans = (list: unknown) =>
    (Array.isArray(list) ? list : []) as { startCp?: number; endCp?: number }[];
  const matches = spans(result.evidence.matches);
  const parts = spans(result.evidence.parts);
  const candidates = [
    ...matches.map((m) => [m.startCp, m.endCp]),
    ...(parts.length > 0 ? [[parts[0].startCp, parts[parts.length - 1].endCp]] : []),
  ];
  return candidates.some(([s, e]) => s === at.start && e === at.end) ? "found" : "not-found";
}
