/**
 * Comparing the pool with a revision stored beside the original: each claim gets one outcome. The
 * comparison says where the cited words, pages and labels stand in the revision; it cannot tell
 * whether the revision answers the report.
 */

import { MIN_QUOTATION_WORDS } from "../checks/verdicts.js";
import { checkRecord } from "../checks/verify.js";
import type { FlowKind } from "../document/flow/model.js";
import { kindName } from "../document/flow/readers.js";
import { countWords, fold } from "../text/fold.js";
import { FoldedFlow } from "../text/folded-flow.js";
import { contextFromExtraction, pagesWithoutText } from "./extraction-record.js";
import { compareFlowClaim } from "./flow-compare.js";
import { type Claim, claimAnchorName, readPool } from "./pool.js";
import {
  findRevision,
  loadExtraction,
  loadFlowDocument,
  type Session,
  type StoredRevision,
} from "./store.js";

export const COMPARE_OUTCOMES = [
  "unchanged",
  "moved",
  "not found",
  "page exists",
  "page gone",
  "section exists",
  "section gone",
  "anchor exists",
  "anchor unverified",
  "uncheckable",
] as const;
export type CompareOutcome = (typeof COMPARE_OUTCOMES)[number];

export const COMPARE_OUTCOME_MEANINGS: Record<CompareOutcome, string> = {
  unchanged:
    "the quoted words are on the same page of the revision (a flow source: in the same section, or in the document for a claim naming none)",
  moved:
    "the quoted words are on another page (a flow source: under another heading) of the revision, which the outcome names",
  "not found":
    "the quoted words are on no page (a flow source: in no section) of the revision's text; this does not say the authors removed them",
  "page exists": "the revision has the page (a flow source: prints the page label; its wording is unchecked)",
  "page gone": "the revision has fewer pages than the page named (a flow source: prints no such page label)",
  "section exists":
    "a flow source: the revision has a heading the claim's section names (a shorter quotation; its wording is unchecked)",
  "section gone": "a flow source: no heading of the revision reads as the claim's section",
  "anchor exists": "the revision prints the label as the claim cites it",
  "anchor unverified": "the label was not found in the revision as the claim cites it",
  uncheckable:
    "the revision cannot settle it: a page of the revision gave no text, or the evidence is unavailable",
};

export const COMPARE_CAVEAT = "the comparison cannot tell whether the revision answers the report";

export interface ClaimComparison {
  claim: string;
  kind: Claim["kind"];
  anchor: string;
  quote: string | null;
  outcome: CompareOutcome;
  /** Pages of the revision holding the words, for `unchanged` and `moved` (none on a flow source). */
  pages: number[];
  /** A flow source: the heading chains holding the words, for `unchanged` and `moved`. */
  sections?: string[];
  detail: string;
}

export interface CompareReport {
  session: string;
  /** A flow source's kind beside its sha256 (its pages are 0). */
  original: { sha256: string; pages: number; kind?: FlowKind };
  revision: { id: string; sha256: string; pages: number; pagesWithoutText: number[]; kind?: FlowKind };
  claims: ClaimComparison[];
  counts: Record<CompareOutcome, number>;
  caveat: string;
}

export async function compareRevision(session: Session, revisionId?: string): Promise<CompareReport> {
  const revision = findRevision(session, revisionId);
  if (revision.kind !== undefined) return compareFlowRevision(session, revision, revision.kind);
  const record = loadExtraction(session, revision);
  const context = contextFromExtraction(record);
  const textless = pagesWithoutText(record);
  const claims: ClaimComparison[] = [];
  for (const claim of readPool(session)) {
    const base = {
      claim: claim.id,
      kind: claim.kind,
      anchor: claimAnchorName(claim),
      quote: claim.text ?? null,
    };
    const page = claim.page ?? 0;
    if (claim.kind === "quotation" && countWords(claim.text ?? "") >= MIN_QUOTATION_WORDS) {
      const needle = fold(claim.text ?? "", { trim: true }).text;
      if (page <= record.pageCount && context.pages.findOnPage(page, needle, 1).length > 0) {
        claims.push({ ...base, outcome: "unchanged", pages: [page], detail: `still on page ${page}` });
        continue;
      }
      const elsewhere = context.pages.pagesContaining(needle);
      if (elsewhere.length > 0) {
        claims.push({
          ...base,
          outcome: "moved",
          pages: elsewhere,
          detail: `moved to ${pageList(elsewhere)}`,
        });
      } else if (textless.length > 0) {
        claims.push({
          ...base,
          outcome: "uncheckable",
          pages: [],
          detail: `found on no page with text; ${pageList(textless)} of the revision gave no text, and the words may be there`,
        });
      } else {
        claims.push({
          ...base,
          outcome: "not found",
          pages: [],
          detail: "on no page of the revision's text (this does not say the authors removed it)",
        });
      }
      continue;
    }
    if (claim.kind === "quotation" || claim.kind === "page") {
      const exists = page >= 1 && page <= record.pageCount;
      claims.push({
        ...base,
        outcome: exists ? "page exists" : "page gone",
        pages: exists ? [page] : [],
        detail: exists ? `the revision has page ${page}` : `the revision has ${record.pageCount} pages`,
      });
      continue;
    }
    if (claim.kind === "equation" || claim.kind === "figure") {
      const result = await checkRecord(context, { kind: claim.kind, label: claim.label ?? "" });
      const outcome: CompareOutcome =
        result.verdict === "PASS"
          ? "anchor exists"
          : result.reason === "equation-evidence-unavailable"
            ? "uncheckable"
            : "anchor unverified";
      claims.push({ ...base, outcome, pages: [], detail: `${result.message} [${result.reason}]` });
      continue;
    }
    claims.push({ ...base, outcome: "uncheckable", pages: [], detail: "a claim the comparison cannot read" });
  }
  return {
    session: session.info.name,
    original: { sha256: session.info.original.sha256, pages: session.info.original.pages },
    revision: {
      id: revision.id,
      sha256: revision.sha256,
      pages: record.pageCount,
      pagesWithoutText: textless,
    },
    claims,
    counts: countOutcomes(claims),
    caveat: COMPARE_CAVEAT,
  };
}

/** The pool compared with a revision of a flow original (flow-compare.ts). */
function compareFlowRevision(session: Session, revision: StoredRevision, kind: FlowKind): CompareReport {
  const flow = new FoldedFlow(loadFlowDocument(session, revision));
  const claims: ClaimComparison[] = readPool(session).map((claim) => ({
    claim: claim.id,
    kind: claim.kind,
    anchor: claimAnchorName(claim),
    quote: claim.text ?? null,
    ...compareFlowClaim(flow, claim),
  }));
  const original = session.info.original;
  return {
    session: session.info.name,
    original: { sha256: original.sha256, pages: 0, ...(original.kind ? { kind: original.kind } : {}) },
    revision: { id: revision.id, sha256: revision.sha256, pages: 0, pagesWithoutText: [], kind },
    claims,
    counts: countOutcomes(claims),
    caveat: COMPARE_CAVEAT,
  };
}

function countOutcomes(claims: readonly ClaimComparison[]): Record<CompareOutcome, number> {
  return Object.fromEntries(
    COMPARE_OUTCOMES.map((o) => [o, claims.filter((c) => c.outcome === o).length]),
  ) as Record<CompareOutcome, number>;
}

export function formatCompare(report: CompareReport): string {
  const r = report.revision;
  const named = (d: { sha256: string; pages: number; kind?: FlowKind }) =>
    d.kind === undefined
      ? `pdf sha256 ${d.sha256.slice(0, 12)}, ${d.pages} pages`
      : `${kindName(d.kind)} sha256 ${d.sha256.slice(0, 12)}`;
  const lines = [
    `session ${report.session}: pool compared with revision ${r.id} (${named(r)}) of the original (${named(report.original)})`,
  ];
  if (r.pagesWithoutText.length > 0)
    lines.push(`  ${pageList(r.pagesWithoutText)} of the revision gave no text`);
  for (const c of report.claims) {
    const quote = c.quote !== null ? ` "${c.quote}"` : "";
    lines.push(`  ${c.outcome}: ${c.anchor}${quote} (claim ${c.claim}): ${c.detail}`);
  }
  const counted = COMPARE_OUTCOMES.filter((o) => report.counts[o] > 0).map((o) => `${report.counts[o]} ${o}`);
  lines.push(`${report.claims.length} claim(s)${counted.length > 0 ? `: ${counted.join(", ")}` : ""}`);
  lines.push(`note: ${report.caveat}`);
  return `${lines.join("\n")}\n`;
}

function pageList(pages: number[]): string {
  if (pages.length === 1) return `page ${pages[0]}`;
  return `pages ${pages.slice(0, -1).join(", ")} and ${pages[pages.length - 1]}`;
}
