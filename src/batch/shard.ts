/**
 * Sharding: a job belongs to shard K of N (one-based) by a stable hash of its id, so N copies of a
 * batch, each given its K, run every job exactly once between them, on any scheduler.
 */
import { createHash } from "node:crypto";
import { CiteproofError } from "../errors.js";

export interface Shard {
  /** One-based. */
  index: number;
  count: number;
}

export const MAX_SHARDS = 100_000;

/** The shard (one-based) a key falls in: the first 32 bits of its sha256, modulo the count. */
export function shardOf(key: string, count: number): number {
  return (createHash("sha256").update(key, "utf8").digest().readUInt32BE(0) % count) + 1;
}

export function inShard(key: string, shard: Shard): boolean {
  return shardOf(key, shard.count) === shard.index;
}

/** Reads `K/N` (1 <= K <= N). */
export function parseShard(text: string, what = "--shard"): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = m ? Number(m[1]) : Number.NaN;
  const count = m ? Number(m[2]) : Number.NaN;
  if (!m || count < 1 || count > MAX_SHARDS || index < 1 || index > count)
    throw new CiteproofError(
      "USAGE",
      `${what} must be K/N with 1 <= K <= N <= ${MAX_SHARDS} (got ${JSON.stringify(text)})`,
    );
  return { index, count };
}

/**
 * The shard a scheduler's environment names, when no `--shard` is given: Kubernetes Indexed Jobs set
 * `JOB_COMPLETION_INDEX` (zero-based; the count is `--shards N`), Slurm job arrays set
 * `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT` (with `SLURM_ARRAY_TASK_MIN` and `_STEP` when the
 * array does not start at 0 or steps). Undefined when neither is set.
 */
export function shardFromEnv(env: Record<string, string | undefined>, shards?: number): Shard | undefined {
  const k8s = env.JOB_COMPLETION_INDEX;
  if (k8s !== undefined && k8s !== "") {
    if (shards === undefined)
      throw new CiteproofError(
        "USAGE",
        "JOB_COMPLETION_INDEX is set: give the number of shards (the Job's completions) with --shards N",
      );
    return checked(envInt(env, "JOB_COMPLETION_INDEX") + 1, shards, "JOB_COMPLETION_INDEX + 1");
  }
  if (shards !== undefined)
    throw new CiteproofError("USAGE", "--shards N is read with JOB_COMPLETION_INDEX, which is not set");
  const slurm = env.SLURM_ARRAY_TASK_ID;
  if (slurm === undefined || slurm === "") return undefined;
  const id = envInt(env, "SLURM_ARRAY_TASK_ID");
  const count = envInt(env, "SLURM_ARRAY_TASK_COUNT");
  const min = env.SLURM_ARRAY_TASK_MIN ? envInt(env, "SLURM_ARRAY_TASK_MIN") : 0;
  const step = env.SLURM_ARRAY_TASK_STEP ? Math.max(1, envInt(env, "SLURM_ARRAY_TASK_STEP")) : 1;
  return checked((id - min) / step + 1, count, "the Slurm array task");
}

function envInt(env: Record<string, string | undefined>, name: string): number {
  const value = env[name] ?? "";
  if (!/^\d+$/.test(value))
    throw new CiteproofError("USAGE", `${name} must be a whole number (got ${JSON.stringify(value)})`);
  return Number(value);
}

function checked(index: number, count: number, what: string): Shard {
  if (!Number.isInteger(index) || count < 1 || count > MAX_SHARDS || index < 1 || index > count)
    throw new CiteproofError("USAGE", `${what} gives shard ${index} of ${count}, which is not 1 <= K <= N`);
  return { index, count };
}
