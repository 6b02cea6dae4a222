/**
 * A record not decided because a deadline cut the work it needed (the extraction of its pages, the
 * layout rules, OCR): FLAG `deadline`, never the FAIL or the FLAG the unfinished work would have
 * left. A verdict must not depend on how fast the machine is; a longer deadline may decide it.
 */
import { CiteproofError } from "../errors.js";
import type { EvidenceKind, EvidenceRecord } from "./evidence-record.js";
import type { CheckResult, CheckResultOf } from "./result.js";
import { tryLonger } from "./setting-names.js";

/** A record no check has decided yet: what it claims, as its evidence. */
export interface Undecided {
  id?: string;
  kind: EvidenceKind;
  evidence: Record<string, unknown>;
}

export interface DeadlineCut {
  /** The deadline that passed, in milliseconds. */
  limitMs: number;
  /** What the deadline stopped: "extraction", "the layout rules", "OCR". */
  step: string;
  /** The pages left unread by that step (empty when it was not reading pages). */
  pagesNotRead: readonly number[];
}

/** Pages as runs: [1, 2, 3, 5] is "1-3, 5". */
export function pageRuns(pages: readonly number[]): string {
  const sorted = [...new Set(pages)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    runs.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return runs.join(", ");
}

/** The deadline to suggest: four times the one that passed, at least a minute, at most a timer's longest. */
export function longerDeadline(limitMs: number): number {
  return Math.min(2 ** 31 - 1, Math.max(60_000, limitMs * 4));
}

/** The record's result once a deadline cut what it needed: FLAG `deadline`, what was seen kept. */
export function cutByDeadline(result: CheckResult | Undecided, cut: DeadlineCut): CheckResultOf<"deadline"> {
  const pages = cut.pagesNotRead.length;
  const notRead = pages === 0 ? "" : `; page${pages === 1 ? "" : "s"} ${pageRuns(cut.pagesNotRead)} not read`;
  return {
    ...(result.id !== undefined ? { id: result.id } : {}),
    kind: result.kind,
    verdict: "FLAG",
    reason: "deadline",
    message: `not decided before the deadline (${cut.limitMs} ms): ${cut.step} did not finish${notRead}; ${tryLonger(longerDeadline(cut.limitMs))}`,
    evidence: {
      ...result.evidence,
      deadline: {
        limitMs: cut.limitMs,
        step: cut.step,
        pagesNotRead: [...new Set(cut.pagesNotRead)].sort((a, b) => a - b),
        // What the work done before the deadline gave, when it gave anything.
        ...("reason" in result && result.reason !== "deadline"
          ? { before: { verdict: result.verdict, reason: result.reason } }
          : {}),
      },
    },
  };
}

/** Whether an error is a deadline passing: the extraction's, the layout rules' or OCR's. */
export function isDeadline(error: unknown): boolean {
  return error instanceof CiteproofError && error.code === "EXTRACTION_TIMEOUT";
}

/** A record not checked at all: what it claims, as its evidence. */
export function undecided(record: EvidenceRecord): Undecided {
  const { id, kind } = record;
  const evidence: Record<string, unknown> =
    record.kind === "quotation"
      ? {
          quotation: record.text,
          ...(record.page !== undefined ? { page: record.page } : {}),
          ...(record.endPage !== undefined ? { endPage: record.endPage } : {}),
        }
      : record.kind === "page"
        ? { page: record.page }
        : { label: record.label };
  return { ...(id !== undefined ? { id } : {}), kind, evidence };
}
