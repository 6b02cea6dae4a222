import type { Command } from "commander";
import { runBatch } from "../../batch/run-batch.js";
import { parseShard, shardFromEnv } from "../../batch/shard.js";
import { formatSummary } from "../../batch/summary.js";
import { CiteproofError } from "../../errors.js";
import { resolveRoot } from "../../source/allowed-root.js";
import { batchProgress } from "../batch-progress.js";
import type { CommandIo } from "../cli-io.js";
import { addSharedDocumentOptions, positiveInt, printJson, runAction, sharedOpenOptions } from "../io.js";

interface BatchFlags {
  out: string;
  jobs?: string;
  shard?: string;
  shards?: string;
  allowRoot: string[];
  cacheDir?: string;
  cache?: boolean;
  timeoutMs?: string;
  maxBytes?: string;
  quiet?: boolean;
  json?: boolean;
  retryErrors?: boolean;
}

export function register(program: Command, io: CommandIo): void {
  const command = program
    .command("batch")
    .description("run many jobs (verify, cite_check, check_text) from a JSON-lines file, resumable")
    .argument("<jobs>", "the jobs file: one JSON job per line")
    .requiredOption("--out <file>", "the results file (JSON lines); an earlier run's results are resumed")
    .option("--jobs <n>", "worker threads (default: the available cores)")
    .option("--shard <K/N>", "run only the jobs whose id hashes to shard K of N (1 <= K <= N)")
    .option("--shards <n>", "the number of shards, with Kubernetes' JOB_COMPLETION_INDEX giving this one")
    .option(
      "--allow-root <dir>",
      "also admit PDFs under this directory (repeatable; the working directory always is)",
      (dir: string, dirs: string[]) => [...dirs, dir],
      [] as string[],
    )
    .option(
      "--retry-errors",
      "run again the jobs whose result line is an error (their lines replaced in one atomic rewrite)",
    )
    .option("--quiet", "no progress on stderr")
    .option("--json", "print the summary as JSON");
  addSharedDocumentOptions(command, "job").action((jobsPath: string, flags: BatchFlags) =>
    runAction(io, flags.json, async () => {
      const threads = positiveInt(flags.jobs, "--jobs");
      const shards = positiveInt(flags.shards, "--shards");
      if (flags.shard !== undefined && shards !== undefined)
        throw new CiteproofError("USAGE", "--shard K/N and --shards N: give one");
      const shard = flags.shard !== undefined ? parseShard(flags.shard) : shardFromEnv(io.env, shards);
      const summary = await runBatch({
        jobsPath,
        outPath: flags.out,
        env: {
          cwd: io.cwd,
          roots: [io.cwd, ...flags.allowRoot].map(resolveRoot),
          // The pool runs jobs side by side: each job extracts with one engine worker.
          open: { ...sharedOpenOptions({ ...flags, jobs: undefined }), jobs: 1 },
        },
        threads,
        shard,
        retryErrors: flags.retryErrors === true,
        progress: batchProgress(flags.quiet === true),
      });
      if (flags.json) printJson(summary, io.stdout);
      else io.stdout.write(formatSummary(summary));
      return summary.exit;
    }),
  );
}
