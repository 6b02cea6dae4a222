/**
 * Comparing the pool with a revision stored beside the original: each claim gets one outcome. The
 * comparison says where the cited words, pages and labels stand in the revision; it cannot tell
 * whether the revision answers the report.
 */

import { MIN_QUOTATION_WORDS } from "../checks/verdicts.js";
import { checkRecord } from "../checks/verify.js";
import { countWords, fold } from "../text/fold.js";
import { contextFromExtraction, pagesWithoutText } from "./extraction-record.js";
import { type Claim, claimAnchorName, readPool } from "./pool.js";
import { findRevision, loadExtraction, type Session } from "./store.js";

export const COMPARE_OUTCOMES = [
  "unchanged",
  "moved",
  "not found",
  "page exists",
  "page gone",
  "anchor exists",
  "anchor unverified",
  "uncheckable",
] as const;
export type CompareOutcome = (typeof COMPARE_OUTCOMES)[number];

export const COMPARE_OUTCOME_MEANINGS: Record<CompareOutcome, string> = {
  unchanged: "the quoted words are on the same page of the revision",
  moved: "the quoted words are on another page of the revision, which the outcome names",
  "not found":
    "the quoted words are on no page of the revision's text; this does not say the authors removed them",
  "page exists": "the revision has the page (its wording is unchecked)",
  "page gone": "the revision has fewer pages than the page named",
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
  /** Pages of the revision holding the words, for `unchanged` and `moved`. */
  pages: number[];
  detail: string;
}

export interface CompareReport {
  session: string;
  original: { sha256: string; pages: number };
  revision: { id: string; sha256: string; pages: number; pagesWithoutText: number[] };
  claims: ClaimComparison[];
  counts: Record<CompareOutcome, number>;
  caveat: string;
}

export async function compareRevision(session: Session, revisionId?: string): Promise<CompareReport> {
  const revision = findRevision(session, revisionId);
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
  const counts = Object.fromEntries(
    COMPARE_OUTCOMES.map((o) => [o, claims.filter((c) => c.outcome === o).length]),
  );
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
    counts: counts as Record<CompareOutcome, number>,
    caveat: COMPARE_CAVEAT,
  };
}

export function formatCompare(report: CompareReport): string {
  const r = report.revision;
  const lines = [
    `session ${report.session}: pool compared with revision ${r.id} (pdf sha256 ${r.sha256.slice(0, 12)}, ${r.pages} pages) of the original (pdf sha256 ${report.original.sha256.slice(0, 12)}, ${report.original.pages} pages)`,
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
