/**
 * The output budget: the supporting locations of all results, as JSON, may take at most
 * max_output_chars UTF-16 units. Results are taken in input order; one whose locations would pass
 * the budget becomes insufficient_evidence with no locations, never a truncated proof.
 */

import type { CiteCheckResult } from "./result.js";
import { CITE_REASON_MEANINGS } from "./verdicts.js";

export function applyOutputBudget(results: CiteCheckResult[], maxOutputChars: number): number {
  let used = 0;
  for (const result of results) {
    if (result.locations.length === 0) continue;
    const size = JSON.stringify(result.locations).length;
    if (used + size <= maxOutputChars) {
      used += size;
      continue;
    }
    result.verdict = "insufficient_evidence";
    result.reason = "output_budget_exceeded";
    result.message = `${CITE_REASON_MEANINGS.output_budget_exceeded} (${size} units needed, ${maxOutputChars - used} left of ${maxOutputChars})`;
    result.locations = [];
  }
  return used;
}
