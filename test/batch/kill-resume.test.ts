// A batch killed with SIGKILL at seeded moments and run again until it finishes holds exactly one
// whole line per job, and each line equals the line of an uninterrupted run.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRng } from "../fuzz/mutate.js";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";
import { CLI, documentOf, fixtureNames, type JobSpec, readLines, writeJobs } from "./helpers.js";

const TRIALS = 20;

let work: ReturnType<typeof tempDir>;
let env: Record<string, string>;
beforeAll(() => {
  work = tempDir("citeproof-batch-kill-");
  env = { ...(process.env as Record<string, string>), CITEPROOF_CACHE_DIR: join(work.dir, "cache") };
});
afterAll(() => work.remove());

function jobs(): JobSpec[] {
  return fixtureNames().flatMap((name) =>
    [1, 2].map((n) => ({
      id: `${name}-${n}`,
      pdf: fixture(name),
      verify: [
        { kind: "page", page: 1 },
        { kind: "quotation", page: 1, text: `words of job ${n} that are not printed` },
      ],
    })),
  );
}

const args = (jobsPath: string, out: string) => [
  "batch",
  jobsPath,
  "--out",
  out,
  "--jobs",
  "2",
  "--quiet",
  "--allow-root",
  join(repoRoot, "test"),
];

/** Starts a batch and kills it once its results file holds `lines` lines or `ms` have passed. */
function killedRun(jobsPath: string, out: string, lines: number, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args(jobsPath, out)], {
      cwd: repoRoot,
      env,
      stdio: "ignore",
    });
    const started = Date.now();
    const poll = setInterval(() => {
      const held = existsSync(out) ? readFileSync(out, "utf8").split("\n").length - 1 : 0;
      if (held >= lines || Date.now() - started >= ms) {
        clearInterval(poll);
        child.kill("SIGKILL");
      }
    }, 5);
    child.on("exit", () => {
      clearInterval(poll);
      resolve();
    });
  });
}

describe("batch killed and resumed", () => {
  it(`${TRIALS} trials of SIGKILL at seeded points: one line per job, equal to an uninterrupted run`, async () => {
    const all = jobs();
    const jobsPath = writeJobs(join(work.dir, "jobs.jsonl"), all);
    const referencePath = join(work.dir, "reference.jsonl");
    const reference = spawnSync(process.execPath, [CLI, ...args(jobsPath, referencePath)], {
      cwd: repoRoot,
      env,
    });
    expect(reference.status, String(reference.stderr)).toBe(1);
    const expected = new Map(readLines(referencePath).map((l) => [l.id, documentOf(l)]));
    expect(expected.size).toBe(all.length);

    const random = seededRng(20261201);
    let interrupted = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const out = join(work.dir, `trial-${trial}.jsonl`);
      rmSync(out, { force: true });
      // Kill once or twice, at a seeded count of finished lines or a seeded moment, then finish.
      const kills = 1 + Math.floor(random() * 2);
      for (let k = 0; k < kills; k++)
        await killedRun(
          jobsPath,
          out,
          1 + Math.floor(random() * (all.length - 1)),
          100 + Math.floor(random() * 3000),
        );
      const held = existsSync(out) ? readFileSync(out, "utf8").split("\n").length - 1 : 0;
      if (held < all.length) interrupted++;
      const finish = spawnSync(process.execPath, [CLI, ...args(jobsPath, out)], { cwd: repoRoot, env });
      expect(finish.status, `trial ${trial}: ${finish.stderr}`).toBe(1);
      const text = readFileSync(out, "utf8");
      expect(text.endsWith("\n"), `trial ${trial}`).toBe(true);
      const lines = readLines(out);
      expect(lines.map((l) => l.id).sort(), `trial ${trial}`).toEqual([...expected.keys()].sort());
      for (const line of lines)
        expect(documentOf(line), `trial ${trial} ${line.id}`).toEqual(expected.get(line.id));
    }
    // The kills fell mid-way, not after the batch had finished.
    expect(interrupted).toBeGreaterThanOrEqual(TRIALS / 2);
  }, 1_800_000);
});
