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
import Tinypool from "tinypool";
import { asCiteproofError, CiteproofError } from "../errors.js";
import { type LockSubject, withLock } from "../session/lock.js";
import { lineKey } from "./job.js";
import { readJobsFile } from "./jobs-file.js";
import { ResultsAppender, readResults } from "./results-file.js";
import { type BatchEnv, errorLine, type ResultLine } from "./run-job.js";
import { inShard, type Shard } from "./shard.js";
import { type BatchSummary, summarize } from "./summary.js";

export interface BatchOptions {
  jobsPath: string;
  outPath: string;
  env: BatchEnv;
  /** Worker threads; default the available cores. */
  threads?: number;
  shard?: Shard;
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
  const finished = new Set(previous.lines.map((l) => lineKey(l.id, l.batch.line)));
  const todo = entries.filter((e) => !finished.has(e.key));
  const lines = [...previous.lines];
  const out = new ResultsAppender(options.outPath);
  const record = (line: ResultLine) => {
    out.append(line);
    lines.push(line);
    options.progress?.done(line);
  };
  options.progress?.start(entries.length, previous.lines.length);
  try {
    for (const e of todo) if (!e.ok) record(errorLine(e.id, null, e.line, e.error));
    const jobs = todo.flatMap((e) => (e.ok ? [e.job] : []));
    if (jobs.length > 0) {
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
  return summarize(lines, previous.lines.length);
}

function workerUrl(): URL {
  const here = new URL("./worker.js", import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  // Running from TypeScript sources (tests): use the built worker.
  return new URL(import.meta.url.replace(/\/src\/batch\/[^/]+$/, "/dist/batch/worker.js"));
}
