/**
 * Checking a draft's own citations against a document: each citation the prose reads becomes an
 * evidence record and goes through the same checks as `verify`. No model is involved.
 */

import { DEFAULT_TIMEOUT_MS } from "../document/open.js";
import { anchorName, exactPage } from "../prose/citation-forms.js";
import { quoteSections } from "../prose/quote-sections.js";
import {
  type DraftReading,
  type ProseCitation,
  type ProseCitationKind,
  readDraft,
} from "../prose/read-draft.js";
import { onlyNotedRegions, REGION_PHRASES, type Region } from "../text/page-regions.js";
import { cutByDeadline, isDeadline, undecided } from "./deadline-cut.js";
import type { EvidenceRecord } from "./evidence-record.js";
import { applyOcr, type QuotationOcrOptions } from "./ocr-quotations.js";
import { checkPageDigits } from "./page.js";
import type { CheckResult } from "./result.js";
import type { Reason, Verdict } from "./verdicts.js";
import { type CheckContext, checkRecord } from "./verify.js";
import { withEvidence } from "./with-evidence.js";

/** How a citation compares with a review session's claim pool; it never says the words are right. */
export const POOL_LABELS = ["matching-pool-quotation", "anchor-only", "absent-anchor"] as const;
export type PoolLabel = (typeof POOL_LABELS)[number];

export const POOL_LABEL_MEANINGS: Record<PoolLabel, string> = {
  "matching-pool-quotation": "the pool holds these words for this anchor",
  "anchor-only": "the pool holds the anchor, but not these words",
  "absent-anchor": "the pool holds neither the anchor nor these words",
};

export interface TextCitationResult {
  kind: ProseCitationKind;
  verdict: Verdict;
  reason: Reason;
  /** `p. 3`, `Eq. (3)`, `Fig. (1)`; null for an unanchored quotation. */
  anchor: string | null;
  /** The citation as the draft writes it; null for an unanchored quotation. */
  written: string | null;
  quote: string | null;
  message: string;
  /** Set only when checked against a review session. */
  pool: PoolLabel | null;
  line: number;
  evidence: Record<string, unknown>;
}

export interface TextCheckReport {
  document: { sha256: string; pages: number };
  citations: TextCitationResult[];
  unsupported_forms: { written: string; line: number }[];
  dropped_quotations: { text: string; chars: number; status: string; line: number }[];
  summary: { citations: number; PASS: number; FLAG: number; FAIL: number; unanchored: number };
  /**
   * Quotations that PASS but whose every match stands in the references, a caption or a running
   * head, grouped by those regions: the draft's lines that cite them.
   */
  found_only_in: { regions: Region[]; quotations: number; lines: number[] }[];
  not_verified: string;
}

export const NOT_VERIFIED =
  "citation forms other than 'p. N', 'Eq. (N)' and 'Fig. (N)', quotations under the floors, and every unquoted claim";

/** The evidence record a prose citation stands for. */
export function citationRecord(citation: ProseCitation, section?: string): EvidenceRecord {
  const anchor = citation.anchor;
  if (citation.kind === "unanchored" || !anchor)
    return {
      kind: "quotation",
      text: citation.quote?.text ?? "",
      ...(section !== undefined ? { section } : {}),
    };
  if (anchor.kind === "page") {
    return citation.quote
      ? { kind: "quotation", page: anchor.page, text: citation.quote.text }
      : { kind: "page", page: anchor.page };
  }
  return { kind: anchor.kind, label: anchor.label };
}

/** A prose citation's check: its record's, or no-such-page for a page past exact numbers. */
export async function checkCitation(
  context: CheckContext,
  citation: ProseCitation,
  section?: string,
): Promise<CheckResult> {
  const anchor = citation.anchor;
  if (citation.kind !== "unanchored" && anchor?.kind === "page" && !exactPage(anchor)) {
    const text = citation.quote?.text;
    return checkPageDigits(context.pageCount, {
      kind: text !== undefined ? "quotation" : "page",
      digits: anchor.digits,
      text,
    });
  }
  const record = citationRecord(citation, section);
  const result = await checkRecord(context, record);
  const closing = record.kind === "quotation" && record.page !== undefined && writersPunctuation(record.text);
  if (!closing || result.verdict === "PASS" || record.kind !== "quotation") return result;
  // The page lacks the `.` or `,` the draft closes its quotation with: it is the writer's sentence
  // punctuation, set inside the closing mark, and the words are checked without it.
  const words = await checkRecord(context, { ...record, text: record.text.slice(0, -1) });
  const note =
    words.verdict === "PASS"
      ? `the closing \`${closing}\` inside the quotation marks is the writer's punctuation: the page has none there`
      : `the closing \`${closing}\` inside the quotation marks was left out as the writer's punctuation`;
  return withEvidence(words, { writersPunctuation: closing }, `${words.message}; ${note}`);
}

/**
 * The `.` or `,` a quotation ends with (just inside its closing mark), which the page may lack at
 * that point: the writer's punctuation. Not the last dot of an ellipsis, nor one after a space.
 */
export function writersPunctuation(text: string): "." | "," | undefined {
  const last = text[text.length - 1];
  if (last !== "." && last !== ",") return undefined;
  const before = text[text.length - 2];
  if (before === undefined || before === "." || before === "\u2026" || /\s/u.test(before)) return undefined;
  return last;
}

/** Whether a draft cites an equation or a figure (their checks need the anchors). */
export function draftNeedsAnchors(reading: DraftReading): boolean {
  return reading.citations.some((c) => c.anchor !== undefined && c.anchor.kind !== "page");
}

export async function checkText(
  context: CheckContext,
  draft: string | DraftReading,
  poolLabel?: (citation: ProseCitation) => PoolLabel,
  ocr?: QuotationOcrOptions,
  /** The deadline the layout rules kept, named when it cut them. */
  deadlineMs = DEFAULT_TIMEOUT_MS,
  /** The draft's text, when `draft` is its reading: a quotation's sentence may name its section (`§ 3.2`). */
  draftText?: string,
): Promise<TextCheckReport> {
  const reading = typeof draft === "string" ? readDraft(draft) : draft;
  const text = typeof draft === "string" ? draft : draftText;
  const sections = text === undefined ? undefined : quoteSections(text);
  // A heading named in quotation marks is the locator, not a quotation.
  const cited = reading.citations.filter((c) => !(c.quote && sections?.inForm(c.quote.startUtf16)));
  const forms = cited.map((c) => (c.kind === "unanchored" && c.quote ? sections?.of(c.quote) : undefined));
  const records = cited.map((c, i) => citationRecord(c, forms[i]?.section));
  let results: CheckResult[] = [];
  for (const [i, citation] of cited.entries()) {
    try {
      results.push(await checkCitation(context, citation, forms[i]?.section));
    } catch (error) {
      // The layout rules an equation or figure citation needs did not finish before the deadline.
      if (!isDeadline(error)) throw error;
      results.push(
        cutByDeadline(undecided(records[i]), {
          limitMs: deadlineMs,
          step: "the layout rules",
          pagesNotRead: [],
        }),
      );
    }
  }
  if (ocr) results = await applyOcr(context, records, results, ocr);
  const citations: TextCitationResult[] = [];
  for (const [i, citation] of cited.entries()) {
    const result = results[i];
    const form = forms[i];
    citations.push({
      kind: form ? "quotation" : citation.kind,
      verdict: result.verdict,
      reason: result.reason,
      anchor: form ? `§ ${form.section}` : citation.anchor ? anchorName(citation.anchor) : null,
      written: form?.written ?? citation.written ?? null,
      quote: citation.quote?.text ?? null,
      message: result.message,
      pool: poolLabel && citation.kind !== "unanchored" ? poolLabel(citation) : null,
      line: citation.line,
      evidence: result.evidence,
    });
  }
  return {
    document: { sha256: context.sha256, pages: context.pageCount },
    citations,
    unsupported_forms: reading.unsupported.map((u) => ({ written: u.written, line: u.line })),
    dropped_quotations: reading.droppedQuotes.map((q) => ({
      text: q.text,
      chars: q.chars,
      status: q.status,
      line: q.line,
    })),
    summary: verdictSummary(citations),
    found_only_in: foundOnlyIn(citations),
    not_verified: NOT_VERIFIED,
  };
}

/** How many citations got each verdict; `citations` counts those that name an anchor (not UNANCHORED). */
export function verdictSummary(citations: readonly { verdict: Verdict }[]): TextCheckReport["summary"] {
  const count = (v: Verdict) => citations.filter((c) => c.verdict === v).length;
  return {
    citations: citations.length - count("UNANCHORED"),
    PASS: count("PASS"),
    FLAG: count("FLAG"),
    FAIL: count("FAIL"),
    unanchored: count("UNANCHORED"),
  };
}

function foundOnlyIn(citations: TextCitationResult[]): TextCheckReport["found_only_in"] {
  const groups = new Map<string, TextCheckReport["found_only_in"][number]>();
  for (const c of citations) {
    if (c.verdict !== "PASS" || c.kind !== "quotation" || !Array.isArray(c.evidence.matches)) continue;
    const noted = onlyNotedRegions(
      (c.evidence.matches as { region?: Region }[]).map((m) => m.region ?? "body"),
    );
    if (!noted) continue;
    const key = noted.join(",");
    const group = groups.get(key) ?? { regions: noted, quotations: 0, lines: [] };
    group.quotations++;
    group.lines.push(c.line);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The human report: a header line, one line per citation, the summary, what was not verified, the exit line. */
export function formatTextCheckReport(report: Omit<TextCheckReport, "document">, header: string): string {
  const lines = [header];
  for (const c of report.citations) lines.push(`  ${c.verdict.padEnd(5)} ${citationLine(c)}`);
  const s = report.summary;
  lines.push(
    `${s.citations} citation(s): ${s.PASS} PASS, ${s.FLAG} FLAG, ${s.FAIL} FAIL; ${s.unanchored} unanchored`,
  );
  for (const g of report.found_only_in) {
    const where = g.regions.map((r) => REGION_PHRASES[r]).join(" and ");
    lines.push(
      `  ${g.quotations} quotation${g.quotations === 1 ? "" : "s"} found only in ${where} (line${g.lines.length === 1 ? "" : "s"} ${g.lines.join(", ")})`,
    );
  }
  lines.push(`not verified: ${report.not_verified}`);
  if (report.unsupported_forms.length > 0) {
    lines.push(`  unsupported forms: ${report.unsupported_forms.map((u) => u.written).join(", ")}`);
  }
  lines.push(
    s.FAIL > 0
      ? "exit 1: at least one citation FAILs against the document"
      : "exit 0: no citation FAILs against the document",
  );
  return `${lines.join("\n")}\n`;
}

function citationLine(c: TextCitationResult): string {
  const quote = c.quote !== null ? `"${c.quote}"` : "";
  const target = [c.anchor, quote].filter((part) => part).join(" ");
  if (c.verdict === "UNANCHORED") return `${target}: ${c.message}`;
  const tag = c.pool ? `[${c.reason}; pool: ${c.pool}]` : `[${c.reason}]`;
  const unchecked = c.verdict === "FLAG" ? " -- wording unchecked" : "";
  return `${target}: ${c.message} ${tag}${unchecked}`;
}
