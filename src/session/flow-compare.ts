/**
 * A pool claim compared with a revision of a flow original, by the rules a PDF's revision is compared
 * by, with sections where the PDF has pages: quoted words of four or more are matched folded, in the
 * section the claim named (`unchanged`), under another heading (`moved`, naming its chain) or nowhere
 * (`not found`); a shorter quotation or a bare place asks whether the section (or printed page)
 * still stands; a label whether the revision prints it.
 */
import { headingsNamed } from "../checks/flow-scope.js";
import { checkFlowRecord } from "../checks/flow-verify.js";
import type { CheckResult } from "../checks/result.js";
import { MIN_QUOTATION_WORDS } from "../checks/verdicts.js";
import { countWords } from "../text/fold.js";
import type { FoldedFlow } from "../text/folded-flow.js";
import type { ClaimComparison, CompareOutcome } from "./compare.js";
import type { Claim } from "./pool.js";

type Compared = Pick<ClaimComparison, "outcome" | "pages" | "detail"> & { sections?: string[] };

export function compareFlowClaim(flow: FoldedFlow, claim: Claim): Compared {
  const place =
    claim.page !== undefined
      ? `printed page ${claim.page}`
      : claim.section !== undefined
        ? `section "${claim.section}"`
        : "the document";
  if (claim.kind === "quotation" && countWords(claim.text ?? "") >= MIN_QUOTATION_WORDS) {
    const record = {
      kind: "quotation" as const,
      text: claim.text ?? "",
      ...(claim.section !== undefined ? { section: claim.section } : {}),
      ...(claim.page !== undefined ? { page: claim.page } : {}),
    };
    let result = checkFlowRecord(flow, record);
    const gone = result.reason === "no-such-section" || result.reason === "no-such-page";
    // The place named is gone from the revision: the words may stand elsewhere in it.
    if (gone) result = checkFlowRecord(flow, { kind: "quotation", text: record.text });
    const sections = matchedSections(result);
    if (result.verdict === "PASS" && !gone)
      return { outcome: "unchanged", pages: [], sections, detail: `still in ${place}` };
    if (result.verdict === "PASS" || result.reason === "wrong-section" || result.reason === "wrong-page")
      return {
        outcome: "moved",
        pages: [],
        sections,
        detail: `${gone ? `${place} is gone from the revision; the words are` : "moved"} under ${sections.map((s) => `"${s}"`).join(", ") || "no heading"}`,
      };
    if (result.verdict === "FAIL")
      return {
        outcome: "not found",
        pages: [],
        detail: "in no section of the revision's text (this does not say the authors removed it)",
      };
    return { outcome: "uncheckable", pages: [], detail: `${result.message} [${result.reason}]` };
  }
  if (claim.kind === "quotation" || claim.kind === "page") {
    if (claim.page !== undefined) {
      const labels = (flow.doc.pageLabels ?? []).map((p) => p.label);
      const exists = labels.includes(String(claim.page));
      return exists
        ? { outcome: "page exists", pages: [claim.page], detail: `the revision prints page ${claim.page}` }
        : {
            outcome: "page gone",
            pages: [],
            detail: `the revision prints ${labels.length} page labels, not ${claim.page}`,
          };
    }
    if (claim.section === undefined)
      return {
        outcome: "uncheckable",
        pages: [],
        detail: "a short quotation naming no section: nothing to compare",
      };
    const exists = headingsNamed(flow, claim.section).length > 0;
    return exists
      ? { outcome: "section exists", pages: [], detail: `the revision has ${place}` }
      : { outcome: "section gone", pages: [], detail: `no heading of the revision reads "${claim.section}"` };
  }
  if (claim.kind === "equation" || claim.kind === "figure") {
    const result = checkFlowRecord(flow, { kind: claim.kind, label: claim.label ?? "" });
    const outcome: CompareOutcome = result.verdict === "PASS" ? "anchor exists" : "anchor unverified";
    return { outcome, pages: [], detail: `${result.message} [${result.reason}]` };
  }
  return { outcome: "uncheckable", pages: [], detail: "a claim the comparison cannot read" };
}

/** The heading chains a result's matches stand under, each once. */
function matchedSections(result: CheckResult): string[] {
  const matches = (result.evidence as { matches?: { section?: string }[] }).matches ?? [];
  return [...new Set(matches.map((m) => m.section ?? ""))];
}
