// Results lines are sealed under the store key and carry the options that shape results: an edited
// or forged line is refused on resume and on merge; a resume or a merge under other options is
// refused naming them; --retry-errors runs again the jobs whose line is an error, in one rewrite.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { mergeResults } from "../../src/batch/merge.js";
import { runBatch } from "../../src/batch/run-batch.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";
import { readLines, writeJobs } from "./helpers.js";

const work = tempDir("citeproof-batch-seal-");
afterAll(() => work.remove());
let n = 0;
const fresh = (name: string) => join(work.dir, `${name}-${n++}`);
const env = (timeoutMs?: number) => ({
  cwd: work.dir,
  roots: [work.dir, dirname(fixture("paper"))],
  open: { noCache: true, timeoutMs },
});
const JOBS = [
  { id: "pass", pdf: fixture("paper"), verify: [{ kind: "page", page: 1 }] },
  {
    id: "fail",
    pdf: fixture("paper"),
    verify: [{ kind: "quotation", page: 1, text: "words that stand on no page of this paper" }],
  },
];

type Line = {
  id: string;
  batch: { exit: number; seal?: string; options?: unknown };
  results?: { verdict: string }[];
};

describe("sealed results lines", () => {
  it("an edited line (a FAIL made a PASS) is refused on resume and on merge, naming its seal", async () => {
    const jobsPath = writeJobs(fresh("jobs.jsonl"), JOBS);
    const out = fresh("out.jsonl");
    await runBatch({ jobsPath, outPath: out, env: env(), threads: 1 });
    const lines = readLines(out) as Line[];
    expect(lines.every((l) => /^[0-9a-f]{64}$/.test(l.batch.seal ?? ""))).toBe(true);
    for (const l of lines)
      expect(l.batch.options).toEqual({
        cwd: work.dir,
        roots: env().roots,
        timeout_ms: null,
        max_bytes: null,
      });
    const forged = lines.map((l) =>
      l.id === "fail"
        ? {
            ...l,
            batch: { ...l.batch, exit: 0 },
            results: l.results?.map((r) => ({ ...r, verdict: "PASS" })),
          }
        : l,
    );
    const text = `${forged.map((l) => JSON.stringify(l)).join("\n")}\n`;
    writeFileSync(out, text);
    await expect(runBatch({ jobsPath, outPath: out, env: env(), threads: 1 })).rejects.toMatchObject({
      code: "BATCH_OUTPUT_FOREIGN",
      message: expect.stringContaining("fails its seal"),
    });
    expect(readFileSync(out, "utf8")).toBe(text);
    const shard = fresh("shard.jsonl");
    copyFileSync(out, shard);
    expect(() => mergeResults({ jobsPath, inputs: [shard], outPath: fresh("merged.jsonl") })).toThrow(
      expect.objectContaining({ code: "BATCH_OUTPUT_FOREIGN" }),
    );
  });

  it("a resume or a merge under other options that shape results is refused, naming them", async () => {
    const jobsPath = writeJobs(fresh("jobs.jsonl"), JOBS);
    const out = fresh("out.jsonl");
    await runBatch({ jobsPath, outPath: out, env: env(), threads: 1, shard: { index: 1, count: 2 } });
    const before = readFileSync(out, "utf8");
    await expect(runBatch({ jobsPath, outPath: out, env: env(30_000), threads: 1 })).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(/other options that shape results: --timeout-ms \(null, now 30000\)/),
    });
    expect(readFileSync(out, "utf8")).toBe(before);
    const other = fresh("other.jsonl");
    await runBatch({ jobsPath, outPath: other, env: env(30_000), threads: 1, shard: { index: 2, count: 2 } });
    expect(() => mergeResults({ jobsPath, inputs: [out, other], outPath: fresh("merged.jsonl") })).toThrow(
      expect.objectContaining({
        code: "BATCH_MERGE_MISMATCH",
        message: expect.stringContaining("--timeout-ms"),
      }),
    );
  });

  it("--retry-errors runs again the jobs whose line is an error; the others stay as they are", () => {
    const missing = fresh("later.pdf");
    const jobsPath = writeJobs(fresh("jobs.jsonl"), [
      ...JOBS,
      { id: "later", pdf: missing, verify: [{ kind: "page", page: 1 }] },
    ]);
    const out = fresh("out.jsonl");
    const args = ["batch", jobsPath, "--out", out, "--allow-root", work.dir, "--quiet", "--json"];
    const first = runCli(args);
    expect(first.status).toBe(2);
    const firstLines = readLines(out) as Line[];
    expect(firstLines.find((l) => l.id === "later")?.batch.exit).toBe(2);
    copyFileSync(fixture("paper"), missing);
    // A resume alone runs nothing again.
    expect((runCli(args).json as { resumed: number }).resumed).toBe(3);
    const retried = runCli([...args, "--retry-errors"]);
    expect(retried.status).toBe(1);
    expect((retried.json as { resumed: number; errors: unknown[] }).resumed).toBe(2);
    expect((retried.json as { errors: unknown[] }).errors).toEqual([]);
    const after = readLines(out) as Line[];
    // The lines kept are the very lines written before, in their order; the retried job's line last.
    expect(after.slice(0, 2)).toEqual(firstLines.filter((l) => l.id !== "later"));
    expect(after).toHaveLength(3);
    expect([after[2].id, after[2].batch.exit]).toEqual(["later", 0]);
  });
});
