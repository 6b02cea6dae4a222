/**
 * Checking a draft written from the pool: each citation in the six forms that does not hold gets
 * one of two flags. The prose is left as written; the flags are the output.
 */
import { checkCitation } from "../checks/check-text.js";
import type { Reason } from "../checks/verdicts.js";
import { MIN_QUOTATION_WORDS } from "../checks/verdicts.js";
import { kindName } from "../document/flow/readers.js";
import { anchorName } from "../prose/citation-forms.js";
import { readDraft } from "../prose/read-draft.js";
import { countWords } from "../text/fold.js";
import { draftInput } from "./draft-input.js";
import { checkFlowDraft } from "./flow-check-draft.js";
import { loadOriginal, type OriginalDocument } from "./original.js";
import { claimAnchor, sameAnchor } from "./pool.js";
import type { Session } from "./store.js";

export const DRAFT_FLAGS = ["not in verified pool", "failed re-verification"] as const;
export type DraftFlag = (typeof DRAFT_FLAGS)[number];

export const DRAFT_FLAG_MEANINGS: Record<DraftFlag, string> = {
  "not in verified pool":
    "the draft cites a page (a flow original: a section), equation or figure the material never offered; ask about it, or cut the sentence",
  "failed re-verification":
    "the anchor is in the pool, but the draft's words for it are not on that page (a flow original: in that section, or in the document) of the original; the quotation may have been altered",
};

export interface FlaggedCitation {
  flag: DraftFlag;
  anchor: string;
  written: string;
  quote: string | null;
  line: number;
  /** The re-verification's reason, for `failed re-verification`. */
  reason: Reason | null;
  message: string;
}

export interface DraftCheckReport {
  session: string;
  /** The original: a flow source's kind beside its sha256 (its pages are 0). */
  document: OriginalDocument;
  /** Citations read in the six forms (unanchored quotations are not citations). */
  citations: number;
  flagged: FlaggedCitation[];
  unanchored_quotations: number;
  unsupported_forms: { written: string; line: number }[];
}

export async function checkDraft(session: Session, draft: string): Promise<DraftCheckReport> {
  const original = loadOriginal(session);
  const material = await draftInput(session, original);
  if (original.kind !== "pdf")
    return {
      session: session.info.name,
      document: original.document,
      ...checkFlowDraft(original.flow, material.offered, draft),
    };
  const { context } = original;
  const offered = material.offered.map(claimAnchor);
  const reading = readDraft(draft);
  const flagged: FlaggedCitation[] = [];
  let citations = 0;
  for (const citation of reading.citations) {
    if (citation.kind === "unanchored" || !citation.anchor) continue;
    citations++;
    const anchor = citation.anchor;
    const base = {
      anchor: anchorName(anchor),
      written: citation.written ?? anchorName(anchor),
      quote: citation.quote?.text ?? null,
      line: citation.line,
    };
    if (!offered.some((o) => sameAnchor(o, anchor))) {
      flagged.push({
        ...base,
        flag: "not in verified pool",
        reason: null,
        message: `${anchorName(anchor)} was never offered by the pool; ask about it, or cut the sentence`,
      });
      continue;
    }
    // Only a quotation the floors let through is re-verified: 4+ words and 12-400 characters.
    if (citation.kind !== "quotation" || !citation.quote) continue;
    if (countWords(citation.quote.text) < MIN_QUOTATION_WORDS) continue;
    const result = await checkCitation(context, citation);
    if (result.verdict !== "FAIL") continue;
    flagged.push({ ...base, flag: "failed re-verification", reason: result.reason, message: result.message });
  }
  return {
    session: session.info.name,
    document: original.document,
    citations,
    flagged,
    unanchored_quotations: reading.citations.filter((c) => c.kind === "unanchored").length,
    unsupported_forms: reading.unsupported.map((u) => ({ written: u.written, line: u.line })),
  };
}

export function formatDraftCheck(report: DraftCheckReport): string {
  const lines = [
    `draft checked against the pool of session ${report.session} (${report.document.kind === undefined ? "pdf" : kindName(report.document.kind)} sha256 ${report.document.sha256.slice(0, 12)}): ${report.citations} citation(s) read`,
  ];
  for (const f of report.flagged) {
    const quote = f.quote !== null ? ` "${f.quote}"` : "";
    const reason = f.reason ? ` [${f.reason}]` : "";
    lines.push(`  ${f.flag}: line ${f.line}: ${f.written}${quote}: ${f.message}${reason}`);
  }
  lines.push(`${report.flagged.length} flag(s); the prose is left as written`);
  if (report.unanchored_quotations > 0) {
    lines.push(
      `  ${report.unanchored_quotations} quotation(s) name no ${report.document.kind === undefined ? "page" : "section"} in their sentence and were not checked`,
    );
  }
  if (report.unsupported_forms.length > 0) {
    lines.push(
      `  unsupported forms (not checked): ${report.unsupported_forms.map((u) => u.written).join(", ")}`,
    );
  }
  lines.push(
    report.flagged.length > 0 ? "exit 1: at least one citation is flagged" : "exit 0: no citation is flagged",
  );
  return `${lines.join("\n")}\n`;
}
