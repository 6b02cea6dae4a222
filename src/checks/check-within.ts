/**
 * A check against a context that may hold only some of a document's pages: it maps the context and a
 * record to the record's result, or to the pages it still needs (some pages, or every page for a search
 * over the whole document). The context's pages read a page not held as absent and note it in
 * `UnheldReads`; a check that read one is unfinished, and what it decided meanwhile is let go.
 */
import type { EvidenceRecord } from "./evidence-record.js";
import type { CheckResult } from "./result.js";
import { type CheckContext, checkRecord } from "./verify.js";

/** The pages a check read that its context does not hold, noted while it ran. */
export class UnheldReads {
  readonly pages = new Set<number>();
  /** A search over every page (the token index, every page's printed label) was asked for. */
  everyPage = false;

  notePage(page: number): void {
    this.pages.add(page);
  }

  noteEveryPage(): void {
    this.everyPage = true;
  }

  get any(): boolean {
    return this.everyPage || this.pages.size > 0;
  }

  clear(): void {
    this.pages.clear();
    this.everyPage = false;
  }
}

/** What the pages still needed are: some pages not held, or every page. */
export interface PagesNeeded {
  pages: number[];
  everyPage: boolean;
}

export type CheckOutcome = { result: CheckResult } | { needs: PagesNeeded };

type TextRecord = Extract<EvidenceRecord, { kind: "quotation" | "page" }>;

/**
 * Checks a quotation or page record against a context whose pages note what they do not hold in
 * `unheld`: the result when the check read only pages held, else the pages it needs.
 */
export function checkWithin(context: CheckContext, unheld: UnheldReads, record: TextRecord): CheckOutcome {
  unheld.clear();
  const result = checkRecord(context, record);
  if (!unheld.any) return { result };
  const needs = { pages: [...unheld.pages].sort((a, b) => a - b), everyPage: unheld.everyPage };
  unheld.clear();
  // Decided from neighbours read as absent: decided again once they are in.
  context.pages.forgetNeighbourhoods();
  return { needs };
}

/** The result of an outcome, or undefined when it still needs pages. */
export function resultOf(outcome: CheckOutcome): CheckResult | undefined {
  return "result" in outcome ? outcome.result : undefined;
}
