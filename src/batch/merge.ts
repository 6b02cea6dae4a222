/**
 * Merging shard outputs: every job of the jobs file must have exactly one line across the files, and
 * the merged file holds them in the jobs file's order, written whole (temporary name, rename).
 */
import { resolve } from "node:path";
import { CiteproofError } from "../errors.js";
import { replaceFile } from "../util/atomic-file.js";
import { lineKey } from "./job.js";
import { readJobsFile } from "./jobs-file.js";
import { changedOptions, parseResultsFile } from "./results-file.js";
import type { BatchRunOptions, ResultLine } from "./run-job.js";
import { type BatchSummary, summarize } from "./summary.js";

/** How many ids a mismatch message lists of each kind. */
const LISTED = 10;

export interface MergeOptions {
  jobsPath: string;
  inputs: readonly string[];
  outPath: string;
}

export function mergeResults(options: MergeOptions): BatchSummary {
  if (options.inputs.some((p) => resolve(p) === resolve(options.outPath)))
    throw new CiteproofError("USAGE", `the merged file ${options.outPath} is also one of the inputs`);
  const keys = readJobsFile(options.jobsPath).map((e) => e.key);
  const known = new Set(keys);
  const found = new Map<string, { line: ResultLine; file: string }>();
  const duplicated: string[] = [];
  const torn: string[] = [];
  for (const file of options.inputs) {
    const read = parseResultsFile(file, known);
    if (read.tail.length > 0) torn.push(file);
    for (const line of read.lines) {
      const key = lineKey(line.id, line.batch.line);
      const first = found.get(key);
      if (first) duplicated.push(`${JSON.stringify(key)} (${first.file} and ${file})`);
      else found.set(key, { line, file });
    }
  }
  // Every shard must have run under the same options (those of the first line found).
  const all = [...found.values()];
  const differing = all.filter(
    (f) => changedOptions(f.line.batch.options, all[0].line.batch.options as BatchRunOptions).length > 0,
  );
  if (differing.length > 0) {
    const changes = changedOptions(
      differing[0].line.batch.options,
      all[0].line.batch.options as BatchRunOptions,
    );
    throw new CiteproofError(
      "BATCH_MERGE_MISMATCH",
      `the shard outputs were run with different options that shape results (${differing[0].file} against ${all[0].file}: ${changes.join("; ")}); nothing was written`,
      { missing: 0, duplicated: 0 },
    );
  }
  const missing = keys.filter((k) => !found.has(k)).map((k) => JSON.stringify(k));
  if (missing.length > 0 || duplicated.length > 0) {
    const parts = [
      missing.length > 0 ? `${missing.length} job(s) have no result (${list(missing)})` : "",
      duplicated.length > 0 ? `${duplicated.length} job(s) have more than one (${list(duplicated)})` : "",
      torn.length > 0 ? `${torn.join(", ")} end(s) in a torn line: that shard did not finish` : "",
    ].filter((p) => p.length > 0);
    throw new CiteproofError(
      "BATCH_MERGE_MISMATCH",
      `the shard outputs do not hold each job once: ${parts.join("; ")}; nothing was written`,
      {
        missing: missing.length,
        duplicated: duplicated.length,
      },
    );
  }
  const lines = keys.map((k) => (found.get(k) as { line: ResultLine }).line);
  try {
    replaceFile(options.outPath, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${options.outPath} (${code})`, {
      path: options.outPath,
    });
  }
  return summarize(lines, 0);
}

function list(items: string[]): string {
  return items.length <= LISTED ? items.join(", ") : `${items.slice(0, LISTED).join(", ")}, …`;
}
