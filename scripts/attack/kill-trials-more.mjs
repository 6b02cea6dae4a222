// SIGKILL trials over `source fetch` (from a local HTTP server that drips its page), `run assemble`
// (many claims, so a kill lands while it checks or writes) and `batch --retry-errors` (its atomic
// rewrite of the error lines). After each kill the run's event log, snapshots and result, or the
// batch's results file, must read whole; nothing acknowledged before is lost; and the next run of
// the same command finishes and leaves what one whole run leaves.
import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cli, runCli } from "./child-run.mjs";

const dist = (name) => new URL(`../../dist/${name}`, import.meta.url).href;
const fixture = (name) => fileURLToPath(new URL(`../../test/fixtures/${name}.pdf`, import.meta.url));

/** Runs `node cli args`, killed with SIGKILL after `ms`; whether the kill landed. */
function killedAfter(args, ms, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "ignore"],
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, killed: signal === "SIGKILL" });
    });
  });
}

/** Reads a run's log and snapshots: the source ids of fetch events, or a reason it does not read. */
async function runState(runDir) {
  const { openRun } = await import(dist("evidence/run.js"));
  const { readEvents } = await import(dist("evidence/events.js"));
  const { SnapshotStore } = await import(dist("evidence/snapshot.js"));
  const run = openRun(runDir);
  const log = readEvents(run);
  if (log.invalid.some((l) => !/JSON/.test(l.reason)))
    return { problem: "an event line that is not a torn one" };
  const store = new SnapshotStore(run);
  const ids = new Set();
  for (const e of log.events) {
    if (e.type !== "fetch") continue;
    const loaded = store.load(e.source_id);
    if (!loaded.ok)
      return { problem: `the fetch event of ${e.source_id} has no whole snapshot: ${loaded.code}` };
    ids.add(e.source_id);
  }
  return { ids };
}

/** A page sent in pieces, 20 ms apart: a kill lands while it arrives, is stored or logged. */
async function drippingServer() {
  const server = createServer(async (req, res) => {
    const n = req.url.slice(1);
    const body = `<html><head><title>Article ${n}</title></head><body>${Array.from(
      { length: 40 },
      (_, k) => `<p>Paragraph ${k} of article ${n}: the measured effect held in every stratum.</p>`,
    ).join("")}</body></html>`;
    res.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
    });
    for (let at = 0; at < body.length; at += 600) {
      if (!res.write(body.slice(at, at + 600))) await once(res, "drain");
      await new Promise((r) => setTimeout(r, 20));
    }
    res.end();
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

export async function fetchTrials(dir, trials, random, stats) {
  const server = await drippingServer();
  const runDir = join(dir, "run");
  try {
    await runCli(["run", "new", runDir, "--json"], { timeoutMs: 60_000 });
    const acked = new Set();
    for (let trial = 0; trial < trials; trial++) {
      const args = ["source", "fetch", "--run-dir", runDir, "--url", `${server.base}/${trial}`, "--json"];
      const run = await killedAfter(args, 150 + Math.floor(random() * 900));
      stats.tried++;
      if (run.killed) stats.killed++;
      let state = await runState(runDir);
      if (state.problem) {
        stats.lost++;
        process.stderr.write(`kill trials: fetch ${trial}: ${state.problem}\n`);
        continue;
      }
      for (const id of acked) if (!state.ids.has(id)) stats.lost++;
      // The next run of the same fetch finishes: its snapshot stored and its event logged.
      const again = await runCli(args, { timeoutMs: 60_000 });
      const id = /"source_id":\s*"(src-[0-9a-f]{64})"/.exec(again.stdout)?.[1];
      state = await runState(runDir);
      if (again.status !== 0 || !id || state.problem || !state.ids.has(id)) {
        stats.lost++;
        process.stderr.write(
          `kill trials: fetch ${trial} after the kill: exit ${again.status} ${state.problem ?? ""}\n`,
        );
        continue;
      }
      acked.add(id);
      stats.verdicts++;
    }
  } finally {
    await server.close();
  }
}

export async function assembleTrials(dir, trials, random, stats) {
  const runDir = join(dir, "run");
  await runCli(["run", "new", runDir, "--json"], { timeoutMs: 60_000 });
  const sentences = Array.from({ length: 400 }, (_, k) => `Finding ${k} held in the cohort of study ${k}.`);
  // Fetched fresh from a local server: the claims' spans are then accepted.
  const server = createServer((_, res) => {
    res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
    res.end(sentences.join(" "));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const fetched = await runCli(
    [
      "source",
      "fetch",
      "--run-dir",
      runDir,
      "--url",
      `http://127.0.0.1:${server.address().port}/study`,
      "--json",
    ],
    { timeoutMs: 60_000 },
  );
  await new Promise((r) => server.close(r));
  const sourceId = /"source_id":\s*"(src-[0-9a-f]{64})"/.exec(fetched.stdout)?.[1];
  if (!sourceId) throw new Error(`kill trials: source fetch failed: ${fetched.stdout} ${fetched.stderr}`);
  const text = sentences.join(" ");
  const records = sentences.map((s, k) => {
    const start = [...text.slice(0, text.indexOf(s))].length;
    return {
      id: `c${k}`,
      text: s,
      spans: [
        {
          claim: s,
          evidence_id: "web:study",
          source_id: sourceId,
          start,
          end: start + [...s].length,
          access: "web",
        },
      ],
    };
  });
  writeFileSync(join(runDir, "records", "claims.json"), JSON.stringify(records));
  const { openRun } = await import(dist("evidence/run.js"));
  const { readResult } = await import(dist("evidence/verify.js"));
  const result = () => readResult(openRun(runDir));
  const args = ["run", "assemble", "--run-dir", runDir, "--json"];
  // The first run whole sets the scale: the others are killed within its duration.
  const started = Date.now();
  await runCli(args, { timeoutMs: 120_000 });
  const scaleMs = Date.now() - started;
  const whole = result();
  if (!whole?.sealed || whole.result.accepted.length !== records.length)
    throw new Error("kill trials: the whole assembly did not accept every claim");
  for (let trial = 0; trial < trials; trial++) {
    const run = await killedAfter(args, Math.floor(random() * scaleMs * 1.1));
    stats.tried++;
    if (run.killed) stats.killed++;
    // The result is the last whole one or the new whole one, never torn or unsealed.
    const after = result();
    if (!after?.sealed || after.result.accepted.length !== records.length) {
      stats.lost++;
      process.stderr.write(`kill trials: assemble ${trial}: outputs/result.json torn or unsealed\n`);
    }
    const again = await runCli(args, { timeoutMs: 120_000 });
    const next = result();
    if (again.status !== 0 || !next?.sealed || next.result.accepted.length !== records.length) stats.lost++;
    else stats.verdicts++;
  }
}

/** Writes `jobs` as a jobs file in `dir`; the `batch` arguments over it, for a results file `out`. */
export function batchCommand(dir, jobs, root) {
  const jobsPath = join(dir, "jobs.jsonl");
  writeFileSync(jobsPath, `${jobs.map((j) => JSON.stringify(j)).join("\n")}\n`);
  return (out, ...extra) => [
    "batch",
    jobsPath,
    "--out",
    out,
    "--jobs",
    "2",
    "--quiet",
    "--allow-root",
    root,
    ...extra,
  ];
}

export async function retryTrials(dir, trials, random, stats) {
  const env = { CITEPROOF_CACHE_DIR: join(dir, "cache") };
  const docs = join(dir, "docs");
  mkdirSync(docs, { recursive: true });
  const jobs = Array.from({ length: 6 }, (_, i) => ({
    id: `job-${i}`,
    pdf: join(docs, `d${i}.pdf`),
    verify: [{ kind: "page", page: 1 }],
  }));
  const batch = batchCommand(dir, jobs, realpathSync(docs));
  const args = (out, retry) => batch(out, ...(retry ? ["--retry-errors"] : []));
  const linesOf = (out) =>
    (existsSync(out) ? readFileSync(out, "utf8") : "")
      .split("\n")
      .filter(Boolean)
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return undefined;
        }
      });
  const erred = (line) => line?.batch?.exit === 2;
  for (let trial = 0; trial < trials; trial++) {
    const out = join(dir, `batch-${trial}.jsonl`);
    rmSync(out, { force: true });
    for (const j of jobs) rmSync(j.pdf, { force: true });
    // Half the documents are there: the other jobs' lines are errors.
    jobs.forEach((j, i) => {
      if (i % 2 === 0) copyFileSync(fixture(i % 4 ? "paper" : "cite-check"), j.pdf);
    });
    await runCli(args(out, false), { timeoutMs: 120_000, env });
    const first = linesOf(out);
    const firstErrors = first.filter(erred).length;
    jobs.forEach((j, i) => {
      if (i % 2 === 1) copyFileSync(fixture("paper"), j.pdf);
    });
    const run = await killedAfter(args(out, true), 100 + Math.floor(random() * 2500), env);
    stats.tried++;
    if (run.killed) stats.killed++;
    // The error lines go in one atomic rewrite and their jobs run again: after a kill, every line
    // kept before is there whole, no job has two lines, and the jobs without one are left to do.
    const mid = linesOf(out);
    const ids = mid.map((l) => l?.id);
    const keptBefore = first.filter((l) => l !== undefined && !erred(l)).map((l) => JSON.stringify(l));
    const midText = new Set(mid.map((l) => JSON.stringify(l)));
    if (
      mid.some((l) => l === undefined) ||
      new Set(ids).size !== ids.length ||
      keptBefore.some((l) => !midText.has(l))
    ) {
      stats.lost++;
      process.stderr.write(`kill trials: retry ${trial}: ${mid.length} lines after the kill\n`);
    }
    const finish = await runCli(args(out, true), { timeoutMs: 120_000, env });
    const last = linesOf(out);
    const lastIds = last.map((l) => l?.id);
    if (
      ![0, 1].includes(finish.status) ||
      firstErrors !== 3 ||
      last.some((l) => l === undefined || erred(l)) ||
      lastIds.length !== jobs.length ||
      new Set(lastIds).size !== jobs.length
    ) {
      stats.lost++;
      process.stderr.write(
        `kill trials: retry ${trial} finished: exit ${finish.status}, ${firstErrors} errors first, ${last.filter(erred).length} after\n`,
      );
    } else stats.verdicts++;
  }
}
