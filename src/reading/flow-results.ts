/**
 * Verifying against a flow source with results kept between runs, as a PDF's are (result-cache.ts):
 * each quotation and page record's result is kept in the source's cache entry (bound to its sha256),
 * under the derivation key of the flow reader's and the flow checks' code, beside a summary of the
 * document. A run whose every record is answered from them neither reads the parsed document back nor
 * folds its text, nor loads the checks' code; the others are checked against the document and kept.
 */

import type { EvidenceRecord } from "../checks/evidence-record.js";
import { assertFlowLocators } from "../checks/flow-locators.js";
import type { FlowVerifyReport } from "../checks/flow-verify.js";
import type { CheckResult } from "../checks/result.js";
import { defaultCacheDir, ExtractionCache } from "../document/cache.js";
import { FLOW_KINDS, type FlowKind, type SourceBytes } from "../document/flow/model.js";
import { type FlowOpenOptions, openFlow } from "../document/flow/open.js";
import { keptResultsIn, resultsRecordName } from "./result-cache.js";

type FlowSummary = FlowVerifyReport["document"];

/** Checks every record against the flow source, answering first from the results kept for it. */
export async function verifyFlowSource(
  source: SourceBytes,
  kind: FlowKind,
  records: readonly EvidenceRecord[],
  path: string,
  options: FlowOpenOptions = {},
): Promise<FlowVerifyReport> {
  const cache = options.noCache
    ? undefined
    : new ExtractionCache(options.cacheDir ?? defaultCacheDir(), source.sha256);
  // The same bytes served under another charset read as another text, with other results.
  const charset = source.charset === undefined ? "" : `-charset-${encodeURIComponent(source.charset)}`;
  const name = `${resultsRecordName("flow-results")}${charset}`;
  const summaryName = `${name}-document`;
  const kept = cache && keptResultsIn(cache, name);
  const results = records.map((record) => kept?.get(record));
  const summary = summaryOf(cache?.readRecord<unknown>(summaryName), source.sha256, kind);
  if (summary && results.every((r) => r !== undefined)) {
    assertFlowLocators(kind, (summary.printedPages ?? 0) > 0, records, path);
    return { document: summary, results: results as CheckResult[] };
  }
  const doc = await openFlow(source, kind, options);
  assertFlowLocators(kind, (doc.pageLabels?.length ?? 0) > 0, records, path);
  const { checkFlowRecord, flowDocumentSummary } = await import("../checks/flow-verify.js");
  const { FoldedFlow } = await import("../text/folded-flow.js");
  const flow = new FoldedFlow(doc);
  const checked = records.map((record, i) => {
    const known = results[i];
    if (known) return known;
    const result = checkFlowRecord(flow, record);
    kept?.add(record, result);
    return result;
  });
  const document = flowDocumentSummary(doc);
  if (cache) {
    kept?.keep();
    if (!summary)
      try {
        cache.writeRecord(summaryName, document);
      } catch {
        // An unwritable cache slows the next run; it never changes a result.
      }
  }
  return { document, results: checked };
}

/** A stored summary of this source's document, or undefined when absent or of another shape. */
function summaryOf(value: unknown, sha256: string, kind: FlowKind): FlowSummary | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const s = value as Record<string, unknown>;
  const count = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
  const ok =
    s.sha256 === sha256 &&
    s.kind === kind &&
    (FLOW_KINDS as readonly unknown[]).includes(s.kind) &&
    count(s.paragraphs) &&
    count(s.headings) &&
    (s.printedPages === undefined || count(s.printedPages));
  return ok ? (value as FlowSummary) : undefined;
}
