/** What a batch came to: verdicts counted per job kind, the jobs that could not run, the exit code. */
import type { JobKind } from "./job.js";
import type { ResultLine } from "./run-job.js";

export interface BatchSummary {
  jobs: number;
  /** Jobs whose result was already in the results file. */
  resumed: number;
  /** Verdicts of the results, per job kind: `{"verify": {"PASS": 12, "FAIL": 1}}`. */
  verdicts: Partial<Record<JobKind, Record<string, number>>>;
  /** Jobs with a FAIL (verify, check_text) or a citation not verified (cite_check). */
  failing: number;
  /** Jobs that could not run, with their error code. */
  errors: { id: string | null; line: number; code: string }[];
  /** 0 clean, 1 a check FAILs, 2 a job could not run. */
  exit: 0 | 1 | 2;
}

/** Where each kind's document lists its verdicts. */
const RESULTS_KEY: Record<JobKind, string> = {
  verify: "results",
  check_text: "citations",
  cite_check: "results",
};

export function summarize(lines: readonly ResultLine[], resumed: number): BatchSummary {
  const verdicts: BatchSummary["verdicts"] = {};
  const errors: BatchSummary["errors"] = [];
  let failing = 0;
  for (const line of lines) {
    const kind = line.batch.job;
    if (line.batch.exit === 2 || kind === null) {
      const code = (line.error as { code?: string } | undefined)?.code ?? "INTERNAL";
      errors.push({ id: line.id, line: line.batch.line, code });
      continue;
    }
    if (line.batch.exit === 1) failing++;
    const counts = verdicts[kind] ?? {};
    verdicts[kind] = counts;
    for (const r of (line[RESULTS_KEY[kind]] as { verdict: string }[] | undefined) ?? [])
      counts[r.verdict] = (counts[r.verdict] ?? 0) + 1;
  }
  errors.sort((a, b) => a.line - b.line);
  const exit = errors.length > 0 ? 2 : failing > 0 ? 1 : 0;
  return { jobs: lines.length, resumed, verdicts, failing, errors, exit };
}

export function formatSummary(s: BatchSummary): string {
  const out = [`${s.jobs} job(s)${s.resumed > 0 ? ` (${s.resumed} from an earlier run)` : ""}`];
  for (const [kind, counts] of Object.entries(s.verdicts))
    out.push(
      `  ${kind}: ${Object.entries(counts)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([v, n]) => `${n} ${v}`)
        .join(", ")}`,
    );
  out.push(`${s.failing} job(s) with a failing check, ${s.errors.length} job(s) that could not run`);
  for (const e of s.errors) out.push(`  line ${e.line}${e.id === null ? "" : ` [${e.id}]`}: ${e.code}`);
  const why = ["exit 0: nothing failed", "exit 1: a check fails", "exit 2: a job could not run"];
  out.push(why[s.exit]);
  return `${out.join("\n")}\n`;
}
