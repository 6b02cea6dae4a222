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
