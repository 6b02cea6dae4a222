/**
 * Checks evidence records against a flow document, in input order (a locator the source does not
 * have is refused first, flow-locators.ts).
 */

import type { FlowDocument, FlowKind } from "../document/flow/model.js";
import { foldedText } from "../text/fold.js";
import { FoldedFlow } from "../text/folded-flow.js";
import type { EvidenceRecord } from "./evidence-record.js";
import { assertFlowLocators } from "./flow-locators.js";
import { checkFlowQuotation, matchEvidence } from "./flow-quotation.js";
import type { CheckResult } from "./result.js";

export interface FlowVerifyReport {
  document: { sha256: string; kind: FlowKind; paragraphs: number; headings: number; printedPages?: number };
  results: CheckResult[];
}

/** Checks every record against the document. */
export function verifyFlow(
  doc: FlowDocument,
  records: readonly EvidenceRecord[],
  source: string,
): FlowVerifyReport {
  assertFlowLocators(doc.kind, (doc.pageLabels?.length ?? 0) > 0, records, source);
  const flow = new FoldedFlow(doc);
  const results = records.map((record) => checkFlowRecord(flow, record));
  return { document: flowDocumentSummary(doc), results };
}

/** What a report says of the flow document it checked against. */
export function flowDocumentSummary(doc: FlowDocument): FlowVerifyReport["document"] {
  return {
    sha256: doc.sha256,
    kind: doc.kind,
    paragraphs: doc.blocks.length,
    headings: doc.headings.length,
    ...(doc.pageLabels ? { printedPages: doc.pageLabels.length } : {}),
  };
}

export function checkFlowRecord(flow: FoldedFlow, record: EvidenceRecord): CheckResult {
  switch (record.kind) {
    case "quotation":
      return checkFlowQuotation(flow, record);
    case "page":
      return checkPrintedPage(flow, record);
    case "equation":
    case "figure":
      return checkFlowLabel(flow, record);
  }
}

/** A bare printed page of a source with a page-list: it exists (FLAG), or it does not (FAIL). */
function checkPrintedPage(
  flow: FoldedFlow,
  record: { id?: string; kind: "page"; page: number },
): CheckResult {
  const labels = (flow.doc.pageLabels ?? []).map((p) => p.label);
  const base = { id: record.id, kind: "page" as const };
  if (labels.includes(String(record.page)))
    return {
      ...base,
      verdict: "FLAG",
      reason: "no-quotation",
      message: `printed page ${record.page} exists; nothing on it was checked`,
      evidence: { page: record.page },
    };
  return {
    ...base,
    verdict: "FAIL",
    reason: "no-such-page",
    message: `no page is printed ${record.page} in the source`,
    evidence: { page: record.page, printedPages: labels.length },
  };
}

const KEYWORDS = /^(?:figure|fig\.?|table|tab\.?|equation|eq\.?|eqn\.?)\s*/iu;

/** A figure or equation label: printed on a caption (figure, table) or beside an equation. */
function checkFlowLabel(
  flow: FoldedFlow,
  record: { id?: string; kind: "figure" | "equation"; label: string },
): CheckResult {
  const base = { id: record.id, kind: record.kind };
  const wanted = bareLabel(record.label);
  const kinds = record.kind === "figure" ? ["figure", "table"] : ["equation"];
  const found = flow.doc.labels.find((l) => kinds.includes(l.kind) && bareLabel(l.label) === wanted);
  if (found) {
    const block = flow.doc.blocks[found.block];
    const at = matchEvidence(flow, {
      startUtf16: flow.cp.toUtf16(block.startCp),
      endUtf16: flow.cp.toUtf16(block.endCp),
    });
    return {
      ...base,
      verdict: "PASS",
      reason: "found",
      message: `${found.label} is printed ${record.kind === "figure" ? "on a caption" : "beside an equation"}${at.section ? ` under "${at.section}"` : ""}`,
      evidence: { label: record.label, printed: found.label, ...at },
    };
  }
  const printed = flow.doc.labels.filter((l) => kinds.includes(l.kind)).map((l) => l.label);
  return {
    ...base,
    verdict: "FAIL",
    reason: record.kind === "figure" ? "absent" : "equation-unresolved",
    message: `no ${record.kind === "figure" ? "caption" : "equation"} carries the label ${record.label}${printed.length > 0 ? ` (the source prints ${printed.slice(0, 12).join(", ")}${printed.length > 12 ? ", ..." : ""})` : ""}; this is no evidence the source lacks it`,
    evidence: { label: record.label, printedLabels: printed },
  };
}

/** A label without its keyword, parentheses or closing punctuation, folded: `Figure 3` and `3` alike. */
function bareLabel(label: string): string {
  return foldedText(label, { trim: true })
    .replace(KEYWORDS, "")
    .replace(/^\((.*)\)$/u, "$1")
    .replace(/[.:]$/u, "")
    .trim();
}
