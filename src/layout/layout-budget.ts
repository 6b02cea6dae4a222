/**
 * The deadline the layout rules keep. They run on the main thread, so nothing can stop them from
 * outside: their loops check it, once per candidate token and once per page, and stop with
 * EXTRACTION_TIMEOUT (the code of an extraction past its deadline) once it has passed.
 */
import { CiteproofError } from "../errors.js";
import type { Deadline } from "../util/deadline.js";

export interface LayoutBudget {
  /** Throws EXTRACTION_TIMEOUT once the deadline has passed. */
  check(): void;
}

export function layoutBudget(deadline: Deadline): LayoutBudget {
  return {
    check() {
      if (!deadline.expired()) return;
      throw new CiteproofError(
        "EXTRACTION_TIMEOUT",
        `the layout rules (equation labels, figure captions) did not finish within ${deadline.totalMs} ms and were stopped`,
        { option: "timeout_ms", limit: deadline.totalMs },
      );
    },
  };
}

/** No deadline: for callers that decide on geometry they already hold. */
export const UNBOUNDED: LayoutBudget = { check() {} };
