/**
 * Checking a draft's citations against one flow source (a web page, Markdown, text): each quotation
 * is checked in the section its sentence names (`§ 3.2`, `Section 3.2`, `Sec. 3.2`, `section
 * "Methods"`; the nearest such form before it in its sentence, else after it), or in the whole
 * document when its sentence names none. A page citation (`p. 3`) names what such a source does not
 * have: FAIL `no-such-page`, saying to cite a section.
 */

import type { FlowDocument } from "../document/flow/model.js";
import { kindName } from "../document/flow/readers.js";
import { anchorName } from "../prose/citation-forms.js";
import { type QuoteSections, quoteSections } from "../prose/quote-sections.js";
import { type ProseCitation, readDraft } from "../prose/read-draft.js";
import { FoldedFlow } from "../text/folded-flow.js";
import { NOT_VERIFIED, type TextCheckReport, type TextCitationResult, verdictSummary } from "./check-text.js";
import type { FlowVerifyReport } from "./flow-verify.js";
import { checkFlowRecord, flowDocumentSummary } from "./flow-verify.js";
import type { CheckResult } from "./result.js";

export type FlowTextCheckReport = Omit<TextCheckReport, "document"> & {
  document: FlowVerifyReport["document"];
};

export function checkTextFlow(doc: FlowDocument, draft: string): FlowTextCheckReport {
  const flow = new FoldedFlow(doc);
  const reading = readDraft(draft);
  const sections = quoteSections(draft);
  const inForm = (at: number) => sections.inForm(at);
  const citations: TextCitationResult[] = [];
  for (const citation of reading.citations) {
    if (citation.quote && inForm(citation.quote.startUtf16)) continue;
    citations.push(checkCitation(flow, citation, sections));
  }
  return {
    document: flowDocumentSummary(doc),
    citations,
    unsupported_forms: reading.unsupported.map((u) => ({ written: u.written, line: u.line })),
    dropped_quotations: reading.droppedQuotes
      .filter((q) => !inForm(q.startUtf16))
      .map((q) => ({ text: q.text, chars: q.chars, status: q.status, line: q.line })),
    summary: verdictSummary(citations),
    found_only_in: [],
    not_verified: `${NOT_VERIFIED}; on a ${kindName(doc.kind)} source, sections are cited as § N, Section N, Sec. N or section "Name"`,
  };
}

function checkCitation(
  flow: FoldedFlow,
  citation: ProseCitation,
  sections: QuoteSections,
): TextCitationResult {
  const quote = citation.quote;
  const base = {
    written: citation.written ?? null,
    quote: quote?.text ?? null,
    pool: null,
    line: citation.line,
  };
  if (citation.anchor?.kind === "page") {
    const result: CheckResult = {
      kind: quote ? "quotation" : "page",
      verdict: "FAIL",
      reason: "no-such-page",
      message: `${anchorName(citation.anchor)}: the source is ${kindName(flow.doc.kind)}, which has no pages; cite a section (§ N, Section N, section "Name")`,
      evidence: {},
    };
    return { ...base, kind: citation.kind, anchor: anchorName(citation.anchor), ...outcome(result) };
  }
  if (!quote || citation.kind !== "unanchored") {
    // Equation and figure labels: checked against the labels the source prints.
    const result = checkFlowRecord(flow, {
      kind: citation.anchor?.kind === "equation" ? "equation" : "figure",
      label: citation.anchor && "label" in citation.anchor ? citation.anchor.label : "",
    });
    return {
      ...base,
      kind: citation.kind,
      anchor: citation.anchor ? anchorName(citation.anchor) : null,
      ...outcome(result),
    };
  }
  const form = sections.of(quote);
  const result = checkFlowRecord(flow, {
    kind: "quotation",
    text: quote.text,
    ...(form ? { section: form.section } : {}),
  });
  return {
    ...base,
    kind: "quotation",
    anchor: form ? `§ ${form.section}` : null,
    written: form?.written ?? null,
    ...outcome(result),
  };
}

function outcome(
  result: CheckResult,
): Pick<TextCitationResult, "verdict" | "reason" | "message" | "evidence"> {
  return {
    verdict: result.verdict,
    reason: result.reason,
    message: result.message,
    evidence: result.evidence,
  };
}
