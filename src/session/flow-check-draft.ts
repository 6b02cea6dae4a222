/**
 * Checking a draft written from the pool of a flow original, by the rules a PDF original's draft is
 * checked by, with sections where the PDF has pages: a quotation cited under a section form (`§ 2.1`,
 * `Section 2`, `section "Methods"`) is in the pool when a quotation claim names the same heading, and
 * its words are checked again in that section; a quotation whose sentence names no section is checked
 * again in the whole document when the pool offers words of the whole document, and is left
 * unanchored otherwise. Page, equation and figure citations are in the pool when a claim holds the
 * same anchor (a page only on a source with printed pages).
 */

import { headingsNamed, sectionLocatorKey } from "../checks/flow-scope.js";
import { checkFlowRecord } from "../checks/flow-verify.js";
import { MIN_QUOTATION_WORDS } from "../checks/verdicts.js";
import { anchorName } from "../prose/citation-forms.js";
import { quoteSections } from "../prose/quote-sections.js";
import { readDraft } from "../prose/read-draft.js";
import { countWords } from "../text/fold.js";
import type { FoldedFlow } from "../text/folded-flow.js";
import type { FlaggedCitation } from "./check-draft.js";
import { type Claim, claimAnchor, sameAnchor } from "./pool.js";

export interface FlowDraftCheck {
  citations: number;
  flagged: FlaggedCitation[];
  unanchored_quotations: number;
  unsupported_forms: { written: string; line: number }[];
}

export function checkFlowDraft(flow: FoldedFlow, offered: readonly Claim[], draft: string): FlowDraftCheck {
  const reading = readDraft(draft);
  const sections = quoteSections(draft);
  const quotationClaims = offered.filter((c) => c.kind === "quotation" && c.page === undefined);
  const wholeDocument = quotationClaims.some((c) => c.section === undefined);
  const flagged: FlaggedCitation[] = [];
  let citations = 0;
  let unanchored = 0;
  for (const citation of reading.citations) {
    const quote = citation.quote;
    // A heading named in quotation marks is the locator, not a quotation.
    if (quote && sections.inForm(quote.startUtf16)) continue;
    const form = citation.kind === "unanchored" && quote ? sections.of(quote) : undefined;
    if (citation.kind === "unanchored" && !form && !wholeDocument) {
      unanchored++;
      continue;
    }
    citations++;
    const anchor = form
      ? `§ ${form.section}`
      : citation.anchor
        ? anchorName(citation.anchor)
        : "the document";
    const base = {
      anchor,
      written: form?.written ?? citation.written ?? anchor,
      quote: quote?.text ?? null,
      line: citation.line,
    };
    const held = form
      ? quotationClaims.some((c) => c.section !== undefined && sameSection(flow, c.section, form.section))
      : citation.kind === "unanchored" ||
        offered.some(
          (c) =>
            (c.kind !== "quotation" || c.page !== undefined) &&
            citation.anchor !== undefined &&
            sameAnchor(claimAnchor(c), citation.anchor),
        );
    if (!held) {
      flagged.push({
        ...base,
        flag: "not in verified pool",
        reason: null,
        message: `${anchor} was never offered by the pool; ask about it, or cut the sentence`,
      });
      continue;
    }
    // Only a quotation the floors let through is re-verified: 4+ words and 12-400 characters.
    if (!quote || countWords(quote.text) < MIN_QUOTATION_WORDS) continue;
    if (citation.kind !== "unanchored" && citation.kind !== "quotation") continue;
    const page = citation.anchor?.kind === "page" ? citation.anchor.page : undefined;
    const result = checkFlowRecord(flow, {
      kind: "quotation",
      text: quote.text,
      ...(form ? { section: form.section } : {}),
      ...(page !== undefined ? { page } : {}),
    });
    if (result.verdict !== "FAIL") continue;
    flagged.push({ ...base, flag: "failed re-verification", reason: result.reason, message: result.message });
  }
  return {
    citations,
    flagged,
    unanchored_quotations: unanchored,
    unsupported_forms: reading.unsupported.map((u) => ({ written: u.written, line: u.line })),
  };
}

/** Whether two section locators name the same heading of the source (or read alike). */
function sameSection(flow: FoldedFlow, a: string, b: string): boolean {
  if (sectionLocatorKey(a) === sectionLocatorKey(b)) return true;
  const named = new Set(headingsNamed(flow, a));
  return headingsNamed(flow, b).some((h) => named.has(h));
}
