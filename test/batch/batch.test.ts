// `citeproof batch` as a user runs it: 30 jobs whose lines equal the single commands' --json
// documents, a damaged PDF and bad lines as error lines while the batch goes on, resume, refusals.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";
import { CLI, documentOf, goodJobs, type JobSpec, readLines, writeJobs } from "./helpers.js";

// biome-ignore lint/suspicious/noExplicitAny: the documents are read field by field.
type Doc = Record<string, any>;

let work: ReturnType<typeof tempDir>;
let env: Record<string, string>;
beforeAll(() => {
  work = tempDir("citeproof-batch-");
  env = {
    ...(process.env as Record<string, string>),
    CITEPROOF_CACHE_DIR: join(work.dir, "cache"),
    CITEPROOF_SERVE: "never",
  };
});
afterAll(() => work.remove());

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: repoRoot,
    env,
    encoding: "utf8",
    timeout: 240_000,
  });
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json: json as Doc };
}

function file(name: string, value: unknown): string {
  const path = join(work.dir, name);
  writeFileSync(
    path,
    typeof value === "string" || value instanceof Uint8Array ? value : JSON.stringify(value),
  );
  return path;
}

/** cite_check's `extracted_pages` says what the cache held at the time; the rest must be equal. */
function comparable(doc: Record<string, unknown>): Record<string, unknown> {
  if (doc.operation !== "cite_check") return doc;
  expect(doc.extracted_pages).toBeTypeOf("number");
  const { extracted_pages: _cacheState, ...rest } = doc;
  return rest;
}

/** Runs the commands one after another in one process, each as `citeproof <args>` runs it. */
function singleCommands(commands: string[][]): { status: number; stdout: string }[] {
  const child = join(import.meta.dirname, "children", "single-commands.mjs");
  const r = spawnSync(process.execPath, [child, file("commands.json", commands)], {
    cwd: repoRoot,
    env,
    encoding: "utf8",
    timeout: 600_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** A batch over the fixtures and the worked example, with a JSON summary. */
function batchArgs(jobsPath: string, out: string): string[] {
  const roots = [work.dir, join(repoRoot, "test"), join(repoRoot, "examples")];
  return ["batch", jobsPath, "--out", out, ...roots.flatMap((r) => ["--allow-root", r]), "--json"];
}

/** The single command a job stands for, with --json. */
function singleCommand(job: JobSpec): string[] {
  if (job.verify)
    return ["verify", job.pdf as string, "--evidence", file(`${job.id}.json`, job.verify), "--json"];
  if (job.check_text)
    return ["check-text", job.pdf as string, file(`${job.id}.txt`, job.check_text), "--json"];
  const request = { operation: "cite_check", sources: [{ path: job.pdf }], ...(job.cite_check as object) };
  return [
    "cite-check",
    "--request",
    file(`${job.id}.request.json`, request),
    "--json",
    "--allow-root",
    join(repoRoot, "test"),
  ];
}

describe("citeproof batch", () => {
  const jobs = goodJobs();
  const damaged = join(repoRoot, "test", "fixtures", "paper.pdf");

  it("30 jobs: each line is the single command's --json document with id and batch; bad ones are error lines", () => {
    expect(jobs).toHaveLength(30);
    const truncated = file("truncated.pdf", readFileSync(damaged).subarray(0, 3000));
    const jobsPath = writeJobs(join(work.dir, "jobs.jsonl"), [
      ...jobs.slice(0, 10),
      "{not json",
      { id: "typo", pdf: fixture("paper"), verfy: [] } as unknown as JobSpec,
      { id: "damaged", pdf: truncated, verify: [{ kind: "page", page: 1 }] },
      ...jobs.slice(10),
    ]);
    const out = join(work.dir, "results.jsonl");
    const run = cli([...batchArgs(jobsPath, out), "--jobs", "2"]);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toContain("batch: 33 job(s), 0 already done");
    const lines = readLines(out);
    expect(lines).toHaveLength(33);
    const byId = new Map(lines.map((l) => [l.id ?? `line ${(l.batch as { line: number }).line}`, l]));
    expect(byId.size).toBe(33);

    const notJson = byId.get("line 11") as Doc;
    expect(notJson.error.code).toBe("BATCH_JOB_INVALID");
    expect(notJson.error.message).toMatch(/^jobs line 11 is not JSON/);
    const typo = byId.get("typo") as Doc;
    expect([typo.error.code, typo.batch.line]).toEqual(["BATCH_JOB_INVALID", 12]);
    expect(typo.error.message).toContain('"verfy"');
    const broken = byId.get("damaged") as Doc;
    expect([broken.error.code, broken.batch.exit, broken.batch.job]).toEqual(["DAMAGED_PDF", 2, "verify"]);

    const singles = singleCommands(jobs.map(singleCommand));
    for (const [i, job] of jobs.entries()) {
      const line = byId.get(job.id) as Doc;
      expect(comparable(documentOf(line)), job.id).toEqual(comparable(JSON.parse(singles[i].stdout)));
      expect(line.batch.exit, job.id).toBe(singles[i].status);
      expect(line.batch.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(line.batch.ms).toBeGreaterThanOrEqual(0);
    }
    expect(run.json.errors.map((e: { code: string }) => e.code)).toEqual([
      "BATCH_JOB_INVALID",
      "BATCH_JOB_INVALID",
      "DAMAGED_PDF",
    ]);
    expect(run.json.jobs).toBe(33);

    // Run again: every job is finished, nothing is done twice.
    const before = readFileSync(out, "utf8");
    const again = cli([...batchArgs(jobsPath, out), "--quiet"]);
    expect(again.status).toBe(2);
    expect(again.stderr).toBe("");
    expect(again.json.resumed).toBe(33);
    expect(readFileSync(out, "utf8")).toBe(before);

    // A torn last line (a run killed in its write) is cut off and its job run again, once.
    const whole = before.split("\n").filter((l) => l.length > 0);
    const lastId = JSON.parse(whole[whole.length - 1]).id;
    writeFileSync(out, `${whole.slice(0, -1).join("\n")}\n${whole[whole.length - 1].slice(0, 40)}`);
    const resumed = cli([...batchArgs(jobsPath, out), "--quiet"]);
    expect(resumed.json.resumed).toBe(32);
    const after = readLines(out);
    expect(after).toHaveLength(33);
    expect(after.filter((l) => l.id === lastId)).toHaveLength(1);
    const redone = documentOf(after[after.length - 1]);
    expect(comparable(redone)).toEqual(comparable(documentOf(JSON.parse(whole[whole.length - 1]))));
  }, 900_000);

  it("BATCH_DUPLICATE_ID: two lines with one id are refused before any work, naming both lines", () => {
    const jobsPath = writeJobs(join(work.dir, "dup.jsonl"), [
      jobs[0],
      jobs[1],
      { ...jobs[2], id: jobs[0].id },
    ]);
    const out = join(work.dir, "dup-results.jsonl");
    const run = cli(["batch", jobsPath, "--out", out, "--json"]);
    expect(run.status).toBe(2);
    expect(run.json.error.code).toBe("BATCH_DUPLICATE_ID");
    expect(run.json.error.message).toContain("line 1 and line 3");
    expect(existsSync(out)).toBe(false);
  });

  it("BATCH_OUTPUT_FOREIGN: an output file that is not this batch's results is refused and left alone", () => {
    const jobsPath = writeJobs(join(work.dir, "one.jsonl"), [jobs[0]]);
    for (const [name, content] of [
      ["notes.txt", "my notes\nmore notes\n"],
      ["torn-notes.txt", "my notes"],
      [
        "other.jsonl",
        `${JSON.stringify({ id: "elsewhere", batch: { job: "verify", line: 1, ms: 1, sha256: null, exit: 0 } })}\n`,
      ],
    ]) {
      const out = file(name, content);
      const run = cli(["batch", jobsPath, "--out", out, "--json", "--allow-root", join(repoRoot, "test")]);
      expect(run.status, name).toBe(2);
      expect(run.json.error.code, name).toBe("BATCH_OUTPUT_FOREIGN");
      expect(readFileSync(out, "utf8"), name).toBe(content);
    }
  });

  it("USAGE: --shard 3/2, --jobs 0", () => {
    const jobsPath = writeJobs(join(work.dir, "u.jsonl"), [jobs[0]]);
    for (const flags of [
      ["--shard", "3/2"],
      ["--shard", "0/2"],
      ["--shard", "x"],
      ["--jobs", "0"],
      ["--shards", "2"],
      ["--shard", "1/2", "--shards", "2"],
    ]) {
      const run = cli(["batch", jobsPath, "--out", join(work.dir, "u.out"), ...flags, "--json"]);
      expect(run.status, flags.join(" ")).toBe(2);
      expect(run.json.error.code).toBe("USAGE");
    }
    expect(existsSync(join(work.dir, "u.out"))).toBe(false);
  });
});
