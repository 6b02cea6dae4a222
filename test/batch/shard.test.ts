// Sharding: K/N by a stable hash of the id, from --shard or a scheduler's environment; two shards
// merged equal the unsharded run; batch-merge refuses outputs that do not hold each job once.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shardFromEnv, shardOf } from "../../src/batch/shard.js";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { CLI, documentOf, goodJobs, readLines, writeJobs } from "./helpers.js";

let work: ReturnType<typeof tempDir>;
let baseEnv: Record<string, string>;
beforeAll(() => {
  work = tempDir("citeproof-shard-");
  baseEnv = {
    ...(process.env as Record<string, string>),
    CITEPROOF_CACHE_DIR: join(work.dir, "cache"),
    CITEPROOF_SERVE: "never",
  };
  for (const name of [
    "JOB_COMPLETION_INDEX",
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_STEP",
  ])
    delete baseEnv[name];
});
afterAll(() => work.remove());

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: repoRoot,
    env: { ...baseEnv, ...env },
    encoding: "utf8",
    timeout: 600_000,
  });
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  // biome-ignore lint/suspicious/noExplicitAny: the documents are read field by field.
  return { status: r.status, stderr: r.stderr, json: json as Record<string, any> };
}

/** A line as two runs must agree on it: everything but the job's wall time. */
function stable(line: Record<string, unknown>): Record<string, unknown> {
  // The seal covers the wall time too.
  const { ms: _ms, seal: _seal, ...batch } = line.batch as Record<string, unknown>;
  const doc = documentOf(line);
  // cite_check's extracted_pages tells what the cache held at the time.
  const { extracted_pages: _cacheState, ...rest } = doc;
  return { id: line.id, batch, ...rest };
}

const roots = () => ["--allow-root", join(repoRoot, "test"), "--allow-root", join(repoRoot, "examples")];

describe("sharding", () => {
  it("shard of an id is stable and spreads ids over the shards", () => {
    expect(shardOf("smith-2021", 4)).toBe(shardOf("smith-2021", 4));
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 400; i++) counts[shardOf(`job-${i}`, 4) - 1]++;
    for (const c of counts) expect(c).toBeGreaterThan(60);
  });

  it("reads Kubernetes' and Slurm's environment", () => {
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: "0" }, 3)).toEqual({ index: 1, count: 3 });
    expect(shardFromEnv({ JOB_COMPLETION_INDEX: "2" }, 3)).toEqual({ index: 3, count: 3 });
    expect(shardFromEnv({ SLURM_ARRAY_TASK_ID: "4", SLURM_ARRAY_TASK_COUNT: "5" })).toEqual({
      index: 5,
      count: 5,
    });
    expect(
      shardFromEnv({ SLURM_ARRAY_TASK_ID: "1", SLURM_ARRAY_TASK_COUNT: "5", SLURM_ARRAY_TASK_MIN: "1" }),
    ).toEqual({ index: 1, count: 5 });
    expect(
      shardFromEnv({ SLURM_ARRAY_TASK_ID: "4", SLURM_ARRAY_TASK_COUNT: "3", SLURM_ARRAY_TASK_STEP: "2" }),
    ).toEqual({ index: 3, count: 3 });
    expect(shardFromEnv({})).toBeUndefined();
    for (const [env, shards] of [
      [{ JOB_COMPLETION_INDEX: "3" }, 3],
      [{ JOB_COMPLETION_INDEX: "0" }, undefined],
      [{}, 2],
      [{ JOB_COMPLETION_INDEX: "x" }, 2],
      [{ SLURM_ARRAY_TASK_ID: "2" }, undefined],
    ] as const)
      expect(() => shardFromEnv(env as Record<string, string>, shards), JSON.stringify(env)).toThrow(
        expect.objectContaining({ code: "USAGE" }),
      );
  });

  it("2 shards (by --shard, by JOB_COMPLETION_INDEX, by Slurm) merged equal the unsharded run", () => {
    const jobsPath = writeJobs(join(work.dir, "jobs.jsonl"), goodJobs());
    const whole = join(work.dir, "whole.jsonl");
    expect(cli(["batch", jobsPath, "--out", whole, "--quiet", ...roots()]).status).toBe(1);
    const expected = readLines(whole)
      .map(stable)
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));
    const ways: [string, (k: number) => { args: string[]; env: Record<string, string> }][] = [
      ["flag", (k) => ({ args: ["--shard", `${k}/2`], env: {} })],
      ["kubernetes", (k) => ({ args: ["--shards", "2"], env: { JOB_COMPLETION_INDEX: String(k - 1) } })],
      [
        "slurm",
        (k) => ({
          args: [],
          env: { SLURM_ARRAY_TASK_ID: String(k), SLURM_ARRAY_TASK_COUNT: "2", SLURM_ARRAY_TASK_MIN: "1" },
        }),
      ],
    ];
    for (const [way, shard] of ways) {
      const outs = [1, 2].map((k) => {
        const out = join(work.dir, `${way}-${k}.jsonl`);
        const { args, env } = shard(k);
        const run = cli(["batch", jobsPath, "--out", out, "--quiet", "--json", ...roots(), ...args], env);
        expect(run.status, `${way} ${k}: ${run.stderr}`).not.toBe(2);
        return out;
      });
      const sizes = outs.map((o) => readLines(o).length);
      expect(sizes[0] + sizes[1], way).toBe(30);
      expect(Math.min(...sizes), way).toBeGreaterThan(0);
      const merged = join(work.dir, `${way}-merged.jsonl`);
      const merge = cli(["batch-merge", jobsPath, ...outs, "--out", merged, "--json"]);
      expect(merge.status, merge.stderr).toBe(1);
      const lines = readLines(merged);
      expect(lines.map((l) => l.id)).toEqual(goodJobs().map((j) => j.id));
      expect(
        lines.map(stable).sort((a, b) => String(a.id).localeCompare(String(b.id))),
        way,
      ).toEqual(expected);
      expect(merge.json.jobs).toBe(30);
    }
  }, 900_000);

  it("BATCH_MERGE_MISMATCH: a job missing, or twice, is refused and nothing is written", () => {
    const jobsPath = join(work.dir, "jobs.jsonl");
    const one = join(work.dir, "flag-1.jsonl");
    const merged = join(work.dir, "bad-merged.jsonl");
    const missing = cli(["batch-merge", jobsPath, one, "--out", merged, "--json"]);
    expect([missing.status, missing.json.error.code]).toEqual([2, "BATCH_MERGE_MISMATCH"]);
    expect(missing.json.error.message).toMatch(/\d+ job\(s\) have no result/);
    const twice = cli([
      "batch-merge",
      jobsPath,
      one,
      join(work.dir, "flag-2.jsonl"),
      join(work.dir, "kubernetes-1.jsonl"),
      "--out",
      merged,
      "--json",
    ]);
    expect([twice.status, twice.json.error.code]).toEqual([2, "BATCH_MERGE_MISMATCH"]);
    expect(twice.json.error.message).toContain("more than one");
    const torn = join(work.dir, "torn.jsonl");
    const text = readFileSync(join(work.dir, "flag-2.jsonl"), "utf8");
    writeFileSync(torn, text.slice(0, text.length - 30));
    const unfinished = cli(["batch-merge", jobsPath, one, torn, "--out", merged, "--json"]);
    expect(unfinished.json.error.code).toBe("BATCH_MERGE_MISMATCH");
    expect(unfinished.json.error.message).toContain("torn line");
    expect(existsSync(merged)).toBe(false);
    const foreign = cli(["batch-merge", jobsPath, join(repoRoot, "README.md"), "--out", merged, "--json"]);
    expect(foreign.json.error.code).toBe("BATCH_OUTPUT_FOREIGN");
    const same = cli(["batch-merge", jobsPath, one, "--out", one, "--json"]);
    expect(same.json.error.code).toBe("USAGE");
  });
});
