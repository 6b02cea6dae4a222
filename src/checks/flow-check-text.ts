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
import { findQuotedSpans } from "../prose/quotes.js";
import { type ProseCitation, readDraft } from "../prose/read-draft.js";
import { findSectionForms, type SectionForm } from "../prose/section-forms.js";
import { splitSentences } from "../prose/sentences.js";
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
  const sections = findSectionForms(draft);
  // A heading named in quotation marks is the locator, not a quotation.
  const inForm = (at: number) => sections.some((s) => at >= s.startUtf16 && at < s.endUtf16);
  const sentenceStarts = splitSentences(draft, findQuotedSpans(draft)).map((s) => s.startUtf16);
  const sentenceOf = (at: number) => sentenceStarts.filter((s) => s <= at).length - 1;
  const citations: TextCitationResult[] = [];
  for (const citation of reading.citations) {
    if (citation.quote && inForm(citation.quote.startUtf16)) continue;
    citations.push(checkCitation(flow, citation, sections, sentenceOf, draft));
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
  sections: SectionForm[],
  sentenceOf: (at: number) => number,
  draft: string,
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
  const form = sectionFor(sections, quote, sentenceOf, draft);
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

/** The section form a quotation belongs to: the nearest before it in its sentence, else the first after it. */
function sectionFor(
  sections: SectionForm[],
  quote: { startUtf16: number; endUtf16: number },
  sentenceOf: (at: number) => number,
  draft: string,
): SectionForm | undefined {
  // Written right after the closing mark (`"…." (§ 2.1)`), it is the quotation's even past its period.
  const next = sections.find((s) => s.startUtf16 >= quote.endUtf16);
  if (next && /^[^\S\n]*,?[^\S\n]*\(?[^\S\n]*$/u.test(draft.slice(quote.endUtf16, next.startUtf16)))
    return next;
  const sentence = sentenceOf(quote.startUtf16);
  const same = sections.filter((s) => sentenceOf(s.startUtf16) === sentence);
  let before: SectionForm | undefined;
  for (const s of same) if (s.endUtf16 <= quote.startUtf16) before = s;
  return before ?? same.find((s) => s.startUtf16 >= quote.endUtf16);
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
