/**
 * A batch: the jobs file read whole (duplicate ids refused before any work), this shard's jobs kept,
 * the results of an earlier run read back (finished jobs skipped, a torn last line redone), the rest
 * run in a pool of worker threads that share the extraction cache, and each result appended as its
 * job ends. The results file is locked (`<out>.lock` beside it) for the whole run: a second batch on
 * the same file is refused with BATCH_OUTPUT_LOCKED, so no job is run or written twice.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { asCiteproofError, CiteproofError } from "../errors.js";
import { type LockSubject, withLock } from "../session/lock.js";
import { lineKey } from "./job.js";
import { readJobsFile } from "./jobs-file.js";
import { changedOptions, ResultsAppender, readResults, rewriteResults, sealLine } from "./results-file.js";
import { type BatchEnv, errorLine, type ResultLine, runOptionsOf } from "./run-job.js";
import { inShard, type Shard } from "./shard.js";
import { type BatchSummary, summarize } from "./summary.js";

export interface BatchOptions {
  jobsPath: string;
  outPath: string;
  env: BatchEnv;
  /** Worker threads; default the available cores. */
  threads?: number;
  shard?: Shard;
  /** Run again the jobs whose line is an error (exit 2), their lines dropped in one atomic rewrite. */
  retryErrors?: boolean;
  /** Called before the first job with the counts, and after each job with its line. */
  progress?: BatchProgress;
}

export interface BatchProgress {
  start(total: number, resumed: number): void;
  done(line: ResultLine): void;
  end(): void;
}

export async function runBatch(options: BatchOptions): Promise<BatchSummary> {
  const out = resolve(options.outPath);
  // One batch at a time on a results file: a second is refused at once, before it reads the file.
  const subject: LockSubject = {
    file: `${basename(out)}.lock`,
    what: `the results file ${options.outPath}`,
    locked: "BATCH_OUTPUT_LOCKED",
    missing: () =>
      new CiteproofError("OUTPUT_UNWRITABLE", `cannot write the results file ${options.outPath} (ENOENT)`, {
        path: options.outPath,
      }),
  };
  return withLock(dirname(out), subject, () => runLocked(options), 0);
}

async function runLocked(options: BatchOptions): Promise<BatchSummary> {
  const entries = readJobsFile(options.jobsPath).filter(
    (e) => options.shard === undefined || inShard(e.key, options.shard),
  );
  const previous = readResults(options.outPath, new Set(entries.map((e) => e.key)));
  const runOptions = runOptionsOf(options.env);
  const changed = new Set(previous.lines.flatMap((l) => changedOptions(l.batch.options, runOptions)));
  if (changed.size > 0)
    throw new CiteproofError(
      "USAGE",
      `the results file ${options.outPath} was written with other options that shape results: ${[...changed].join("; ")}; resume with the same options, or write to another --out (nothing was run)`,
    );
  let kept = previous.lines;
  if (options.retryErrors && kept.some((l) => l.batch.exit === 2)) {
    // The error lines go in one atomic rewrite; their jobs then run as any job not yet done.
    kept = kept.filter((l) => l.batch.exit !== 2);
    rewriteResults(options.outPath, kept);
  }
  const finished = new Set(kept.map((l) => lineKey(l.id, l.batch.line)));
  const todo = entries.filter((e) => !finished.has(e.key));
  const lines = [...kept];
  const out = new ResultsAppender(options.outPath);
  const record = (unsealed: ResultLine) => {
    const line = sealLine(unsealed, runOptions);
    out.append(line);
    lines.push(line);
    options.progress?.done(line);
  };
  options.progress?.start(entries.length, kept.length);
  try {
    for (const e of todo) if (!e.ok) record(errorLine(e.id, null, e.line, e.error));
    const jobs = todo.flatMap((e) => (e.ok ? [e.job] : []));
    if (jobs.length > 0) {
      // Imported here: only a batch with jobs to run needs the pool (and tinypool is an ES module only).
      const { default: Tinypool } = await import("tinypool");
      const pool = new Tinypool({
        filename: workerUrl().href,
        minThreads: 1,
        maxThreads: Math.max(1, Math.min(options.threads ?? availableParallelism(), jobs.length)),
      });
      try {
        await Promise.all(
          jobs.map((job) =>
            pool
              .run({ job, env: options.env })
              .catch((error: unknown) => errorLine(job.id, job.kind, job.line, asCiteproofError(error)))
              .then(record),
          ),
        );
      } finally {
        await pool.destroy();
      }
    }
  } finally {
    out.close();
    options.progress?.end();
  }
  return summarize(lines, kept.length);
}

function workerUrl(): URL {
  const here = new URL("./worker.js", import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  // Running from TypeScript sources (tests): use the built worker.
  return new URL(import.meta.url.replace(/\/src\/batch\/[^/]+$/, "/dist/batch/worker.js"));
}
