// The results file is locked for a whole batch: a second batch on the same --out is refused at once
// (BATCH_OUTPUT_LOCKED) and writes nothing; two batches started together never write a job twice.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBatch } from "../../src/batch/run-batch.js";
import { withLock } from "../../src/session/lock.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { CLI, readLines, writeJobs } from "./helpers.js";

const work = tempDir("citeproof-batch-lock-");
afterAll(() => work.remove());
const env = { cwd: work.dir, roots: [work.dir], open: { noCache: true } };

describe("one batch at a time on a results file", () => {
  it("a batch on a results file whose lock is held is BATCH_OUTPUT_LOCKED and writes nothing", async () => {
    const jobsPath = writeJobs(join(work.dir, "bad.jsonl"), ["{not json", "{also not json"]);
    const out = join(work.dir, "held.jsonl");
    writeFileSync(out, "");
    await withLock(
      work.dir,
      {
        file: "held.jsonl.lock",
        what: "the test's hold",
        locked: "BATCH_OUTPUT_LOCKED",
        missing: () => new Error("missing") as never,
      },
      async () => {
        await expect(runBatch({ jobsPath, outPath: out, env })).rejects.toMatchObject({
          code: "BATCH_OUTPUT_LOCKED",
          message: expect.stringMatching(/held\.jsonl is locked by process \d+/),
        });
        expect(readFileSync(out, "utf8")).toBe("");
      },
    );
    // Released: the batch runs, and leaves no lock behind.
    const summary = await runBatch({ jobsPath, outPath: out, env });
    expect(summary.jobs).toBe(2);
    expect(readLines(out)).toHaveLength(2);
    expect(existsSync(`${out}.lock`)).toBe(false);
  });

  it("two batches started together on one --out: each job has one line", async () => {
    const jobs = Array.from({ length: 6 }, (_, i) => ({
      id: `j${i}`,
      pdf: fixture("paper"),
      verify: [{ kind: "page", page: (i % 5) + 1 }],
    }));
    const jobsPath = writeJobs(join(work.dir, "six.jsonl"), jobs);
    const out = join(work.dir, "together.jsonl");
    const start = () =>
      new Promise<{ status: number | null; stdout: string }>((done) => {
        const child = spawn(
          process.execPath,
          [
            CLI,
            "batch",
            jobsPath,
            "--out",
            out,
            "--jobs",
            "1",
            "--no-cache",
            "--quiet",
            "--json",
            "--allow-root",
            dirname(fixture("paper")),
          ],
          { cwd: work.dir },
        );
        let stdout = "";
        child.stdout.on("data", (d) => {
          stdout += d;
        });
        child.on("close", (status) => done({ status, stdout }));
      });
    const runs = await Promise.all([start(), start()]);
    const codes = runs.map(
      (r) => (JSON.parse(r.stdout) as { error?: { code: string } }).error?.code ?? "ran",
    );
    expect(codes.filter((c) => c === "ran").length).toBeGreaterThanOrEqual(1);
    for (const c of codes) expect(["ran", "BATCH_OUTPUT_LOCKED"]).toContain(c);
    const lines = readLines(out);
    expect(lines.map((l) => l.id).sort()).toEqual(jobs.map((j) => j.id));
  });
});
