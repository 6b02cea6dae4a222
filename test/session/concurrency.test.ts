// Two or more commands on one session at once: every claim each of them adds is kept, no line is
// torn, and a command waits for the lock another holds.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCiteproofError } from "../../src/errors.js";
import { LOCK_FILE, withSessionLock } from "../../src/session/lock.js";
import { type Claim, readPool } from "../../src/session/pool.js";
import { openSession } from "../../src/session/store.js";
import { repoRoot } from "../helpers/fixture-files.js";
import { cliPath } from "../helpers/run-cli.js";
import { ORIGINAL } from "../prose/support.js";
import { type SessionBench, sessionBench } from "./helpers.js";

let bench: SessionBench;
beforeAll(async () => {
  bench = sessionBench();
  expect((await bench.session("new", [ORIGINAL])).status).toBe(0);
});
afterAll(() => bench.remove());

/** Short quotations FLAG on any existing page, so each writer can add many distinct claims. */
function evidenceFor(writer: string, count: number): string {
  const records = Array.from({ length: count }, (_, i) => ({
    kind: "quotation",
    page: (i % 10) + 1,
    text: `${writer} claim ${i}`,
  }));
  return bench.file(`evidence-${writer}.json`, records);
}

function verifyAsync(evidence: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [cliPath, "session", "verify", "demo", "--evidence", evidence, "--session", bench.dir],
      { cwd: repoRoot, env: { ...process.env, CITEPROOF_CACHE_DIR: bench.cache } },
    );
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("exit", (status) => resolve({ status, stderr }));
  });
}

function claims(): Claim[] {
  return readPool(openSession(bench.dir));
}

describe("concurrent session verify", () => {
  it("loses nothing when several verify runs write one pool at once", async () => {
    const writers = ["alpha", "beta", "gamma", "delta"];
    const runs = await Promise.all(writers.map((w) => verifyAsync(evidenceFor(w, 25))));
    for (const run of runs) expect(run.status, run.stderr).toBe(0);
    const pool = claims();
    expect(pool).toHaveLength(100);
    expect(new Set(pool.map((c) => c.id)).size).toBe(100);
    expect(pool.map((c) => c.id)).toEqual(Array.from({ length: 100 }, (_, i) => `c${i + 1}`));
    for (const w of writers) expect(pool.filter((c) => c.text?.startsWith(`${w} `))).toHaveLength(25);
    // Every write was a rename into place: no temporary file and no lock is left behind.
    expect(readdirSync(bench.dir).filter((f) => f.startsWith("."))).toEqual([]);
  });

  it("waits while another process holds the lock, then adds its claims", async () => {
    const lock = join(bench.dir, LOCK_FILE);
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), nonce: "test", since: "now" }));
    const before = claims().length;
    const pending = verifyAsync(evidenceFor("waiting", 3));
    await new Promise((r) => setTimeout(r, 2500));
    expect(claims()).toHaveLength(before);
    expect(readFileSync(lock, "utf8")).toContain('"nonce":"test"');
    rmSync(lock);
    const run = await pending;
    expect(run.status, run.stderr).toBe(0);
    expect(claims()).toHaveLength(before + 3);
  });

  it("breaks a lock whose owner process is gone", async () => {
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid;
    writeFileSync(
      join(bench.dir, LOCK_FILE),
      JSON.stringify({ pid: gone, host: hostname(), nonce: "dead", since: "then" }),
    );
    const before = claims().length;
    const run = await verifyAsync(evidenceFor("after-crash", 2));
    expect(run.status, run.stderr).toBe(0);
    expect(claims()).toHaveLength(before + 2);
  });

  it("gives up with SESSION_LOCKED when the lock is not released in time", async () => {
    const lock = join(bench.dir, LOCK_FILE);
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), nonce: "held", since: "now" }));
    try {
      await expect(withSessionLock(bench.dir, () => "never", 200)).rejects.toSatisfy(
        (e: unknown) => isCiteproofError(e) && e.code === "SESSION_LOCKED",
      );
    } finally {
      rmSync(lock);
    }
  });
});
