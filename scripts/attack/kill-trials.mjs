// SIGKILL at seeded moments over the stores a command writes: a session's claim pool
// (`session verify`), a run's event log (events appended one by one), a batch's results file
// (`batch`, then run again to finish), and (kill-trials-more.mjs) `source fetch`, `run assemble` and
// `batch --retry-errors`. After each kill the store must still read and verify: no
// claim, event or result acknowledged before the kill is lost, nothing is half-written (a session
// command's claims enter all or none), and the finished batch holds exactly one whole line per job.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cli, runCli } from "./child-run.mjs";
import { assembleTrials, batchCommand, fetchTrials, retryTrials } from "./kill-trials-more.mjs";
import { rng } from "./seeded.mjs";

const dist = (name) => new URL(`../../dist/${name}`, import.meta.url).href;
const fixture = (name) => fileURLToPath(new URL(`../../test/fixtures/${name}.pdf`, import.meta.url));

/** Starts `node args`, kills it with SIGKILL after `ms` (or once `until(stdout)` holds); its stdout. */
function killedAfter(args, ms, { env, until } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let stdout = "";
    let killed = false;
    const kill = () => {
      if (!killed) {
        killed = true;
        child.kill("SIGKILL");
      }
    };
    child.stdout.on("data", (d) => {
      stdout += d;
      if (until?.(stdout)) kill();
    });
    const timer = setTimeout(kill, ms);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ stdout, status, signal, killed: signal === "SIGKILL" });
    });
  });
}

async function sessionTrials(dir, trials, random, stats) {
  const { openSession } = await import(dist("session/store.js"));
  const { readPool } = await import(dist("session/pool.js"));
  const sessions = join(dir, "sessions");
  const env = { CITEPROOF_CACHE_DIR: join(dir, "cache") };
  const made = await runCli(["session", "new", "k", fixture("paper"), "--session", sessions, "--json"], {
    timeoutMs: 60_000,
    env,
  });
  if (made.status !== 0) throw new Error(`session new failed: ${made.stderr}`);
  const held = new Set();
  // Under four words: a FLAG (no-quotation), which enters the pool as the words given.
  const words = (trial, i) => `t${trial} c${i}`;
  // The first command runs whole and sets the scale: the others are killed within its duration.
  let scaleMs = 60_000;
  for (let trial = 0; trial < trials; trial++) {
    const evidence = join(dir, `evidence-${trial}.json`);
    const texts = Array.from({ length: 4 }, (_, i) => words(trial, i));
    writeFileSync(evidence, JSON.stringify(texts.map((text) => ({ kind: "quotation", page: 1, text }))));
    const started = Date.now();
    const run = await killedAfter(
      [cli, "session", "verify", "k", "--evidence", evidence, "--session", sessions, "--json"],
      trial === 0 ? scaleMs : Math.floor(random() * scaleMs * 1.1),
      { env },
    );
    if (trial === 0) scaleMs = Date.now() - started;
    stats.tried++;
    let pool;
    try {
      pool = readPool(openSession(sessions));
    } catch (error) {
      stats.crashes++;
      process.stderr.write(`kill trials: session unreadable after trial ${trial}: ${error.message}\n`);
      return;
    }
    const texts2 = new Set(pool.map((c) => c.text));
    const mine = texts.filter((t) => texts2.has(t)).length;
    if (mine !== 0 && mine !== texts.length) stats.lost++;
    if (!run.killed && mine !== texts.length) stats.lost++;
    for (const t of held) if (!texts2.has(t)) stats.lost++;
    if (mine === texts.length) for (const t of texts) held.add(t);
    if (run.killed) stats.killed++;
    else stats.verdicts++;
  }
}

async function runTrials(dir, trials, random, stats) {
  const { createRun, openRun } = await import(dist("evidence/run.js"));
  const { readEvents } = await import(dist("evidence/events.js"));
  const runDir = join(dir, "run");
  createRun(runDir);
  const acked = new Set();
  const child = [
    "--input-type=module",
    "-e",
    `const { appendEvent } = await import(${JSON.stringify(dist("evidence/events.js"))});
     const { openRun } = await import(${JSON.stringify(dist("evidence/run.js"))});
     const run = openRun(process.argv[1]);
     for (let i = 0; ; i++) {
       const e = appendEvent(run, { type: "register", sourceId: "s" + i, fresh: false, sha256: "0", detail: "x".repeat(i % 400) });
       process.stdout.write(e.event_id + "\\n");
     }`,
    runDir,
  ];
  for (let trial = 0; trial < trials; trial++) {
    const run = await killedAfter(child, 150 + Math.floor(random() * 600));
    stats.tried++;
    if (run.killed) stats.killed++;
    for (const id of run.stdout.split("\n").slice(0, -1)) acked.add(id);
    let log;
    try {
      log = readEvents(openRun(runDir));
    } catch (error) {
      stats.crashes++;
      process.stderr.write(`kill trials: event log refused after trial ${trial}: ${error.message}\n`);
      return;
    }
    const ids = new Set(log.events.map((e) => e.event_id));
    for (const id of acked) if (!ids.has(id)) stats.lost++;
    // Only a line cut by the kill may be invalid: a torn last line, closed off by the next writer.
    if (log.invalid.some((l) => !/JSON/.test(l.reason))) stats.lost++;
    stats.verdicts++;
  }
}

async function batchTrials(dir, trials, random, stats) {
  const env = { CITEPROOF_CACHE_DIR: join(dir, "cache") };
  const jobs = Array.from({ length: 6 }, (_, i) => ({
    id: `job-${i}`,
    pdf: fixture(i % 2 ? "paper" : "cite-check"),
    verify: [
      { kind: "page", page: 1 },
      { kind: "quotation", page: 1, text: `words of job ${i} that are not printed` },
    ],
  }));
  const root = realpathSync(fileURLToPath(new URL("../../test/fixtures", import.meta.url)));
  const batch = batchCommand(dir, jobs, root);
  const args = (out) => [cli, ...batch(out)];
  for (let trial = 0; trial < trials; trial++) {
    const out = join(dir, `batch-${trial}.jsonl`);
    rmSync(out, { force: true });
    const lines = () => (existsSync(out) ? readFileSync(out, "utf8").split("\n").length - 1 : 0);
    const want = 1 + Math.floor(random() * (jobs.length - 1));
    const run = await killedAfter(args(out), 200 + Math.floor(random() * 4000), {
      env,
      until: () => lines() >= want,
    });
    stats.tried++;
    if (run.killed) stats.killed++;
    const before = existsSync(out) ? readFileSync(out, "utf8") : "";
    const kept = before.split("\n").filter((l) => l.endsWith("}"));
    const finish = await runCli(args(out).slice(1), { timeoutMs: 120_000, env });
    const text = existsSync(out) ? readFileSync(out, "utf8") : "";
    const ids = text
      .split("\n")
      .filter(Boolean)
      .map((l) => {
        try {
          return JSON.parse(l).id;
        } catch {
          return undefined;
        }
      });
    const whole = text.endsWith("\n") && ids.every((id) => id !== undefined);
    const once = ids.length === jobs.length && new Set(ids).size === jobs.length;
    if (![0, 1].includes(finish.status) || !whole || !once) stats.lost++;
    for (const line of kept) if (!text.includes(line)) stats.lost++;
    stats.verdicts++;
  }
}

/**
 * `trials` kills of each of the session, event log and batch stores, and `laterTrials` (default the
 * same) of each of fetch, assemble and retry.
 */
export async function killTrials(dir, { trials, laterTrials = trials, seed, only }) {
  mkdirSync(dir, { recursive: true });
  const random = rng(seed);
  const stats = { tried: 0, verdicts: 0, killed: 0, crashes: 0, lost: 0 };
  for (const [name, trial] of [
    ["session", sessionTrials],
    ["run", runTrials],
    ["batch", batchTrials],
    ["fetch", fetchTrials],
    ["assemble", assembleTrials],
    ["retry", retryTrials],
  ]) {
    if (only && !only.includes(name)) continue;
    mkdirSync(join(dir, name), { recursive: true });
    const count = ["fetch", "assemble", "retry"].includes(name) ? laterTrials : trials;
    await trial(join(dir, name), count, random, stats);
  }
  return stats;
}
