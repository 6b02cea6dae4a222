/**
 * Adding to a result's evidence. Apart from result.ts, whose schemas a check never needs at run time:
 * a check imports this and the result types alone, so the schemas are built only where they are used
 * (the agent operations' output schemas).
 */
import type { CheckResult } from "./result.js";

/**
 * The result with more evidence (and a longer message, when given): the same member, its reason and
 * verdict kept.
 */
export function withEvidence<T extends CheckResult>(
  result: T,
  extra: Record<string, unknown>,
  message?: string,
): T {
  return {
    ...result,
    ...(message !== undefined ? { message } : {}),
    evidence: { ...result.evidence, ...extra },
  };
}
