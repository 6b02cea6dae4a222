import type { EvidenceKind } from "./evidence-record.js";
import type { Reason, Verdict } from "./verdicts.js";

/** One evidence record's outcome: a verdict, its one reason, a message, and what the check saw. */
export interface CheckResult {
  id?: string;
  kind: EvidenceKind;
  verdict: Verdict;
  reason: Reason;
  message: string;
  evidence: Record<string, unknown>;
}
