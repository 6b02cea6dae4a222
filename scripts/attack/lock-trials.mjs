// Many waiters on a stale session lock: `runLockTrials` starts `waiters` processes that each take
// the lock once per trial, every trial starting from a lock left by a process that is gone. An entry
// is lost when the shared count falls short of the number of entries; an overlap is a waiter entering
// while another is inside. Waiters report over IPC (no polling, no files but the lock's own): a waiter
// that dies counts as an error with its exit status, and a trial not finished within `hangMs` as a hang.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const waiterScript = fileURLToPath(new URL("./lock-waiter.mjs", import.meta.url));

export async function runLockTrials({ trials, waiters, seed = 1, hangMs = 120_000 }) {
  const dir = mkdtempSync(join(tmpdir(), "citeproof-locks-"));
  const session = join(dir, "session");
  mkdirSync(session);
  const result = { trials, entries: 0, lost: 0, overlaps: 0, errors: 0, hangs: 0 };
  const failures = [];
  let count = 0;
  let inside = 0;
  let trial; // the trial running: { t, settle }
  let closing = false;
  const children = Array.from({ length: waiters }, (_, id) => {
    const child = spawn(process.execPath, [waiterScript, session, String(hangMs)], {
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    let stderr = "";
    let owes = false; // sent this trial's go, no answer yet
    let ready;
    const started = new Promise((resolve) => {
      ready = resolve;
    });
    child.stderr.on("data", (chunk) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.on("message", (m) => {
      if (m.ready) ready(true);
      else if (m.enter !== undefined) {
        if (inside > 0) result.overlaps++;
        inside++;
        child.send({ answer: count });
      } else if (m.leave !== undefined) {
        count = m.count;
        inside--;
        child.send({ answer: true });
      } else if (m.done !== undefined && owes && trial?.t === m.done) {
        owes = false;
        if (m.error) {
          result.errors++;
          failures.push(`waiter ${id}, trial ${m.done}: ${m.error}`);
        } else result.entries++;
        trial.settle();
      }
    });
    child.on("exit", (code, signal) => {
      if (closing) return;
      ready(false);
      result.errors++;
      failures.push(`waiter ${id} exited (${signal ?? code}): ${stderr.trim()}`);
      if (owes) {
        owes = false;
        trial.settle();
      }
    });
    const go = (t) => {
      if (!child.connected) return false;
      owes = true;
      child.send({ go: t });
      return true;
    };
    return { child, go, started };
  });
  try {
    await Promise.all(children.map((c) => c.started));
    for (let t = 0; t < trials; t++) {
      const gone = spawnSync(process.execPath, ["--version"]).pid;
      writeFileSync(
        join(session, ".lock"),
        JSON.stringify({ pid: gone, host: hostname(), nonce: `stale${seed}x${t}`, since: "then" }),
      );
      const before = count;
      const entriesBefore = result.entries;
      const finished = await new Promise((resolve) => {
        let left = waiters;
        const timer = setTimeout(() => resolve(false), hangMs + 10_000);
        trial = {
          t,
          settle: () => {
            if (--left === 0) {
              clearTimeout(timer);
              resolve(true);
            }
          },
        };
        for (const { go } of children) if (!go(t)) trial.settle();
      });
      trial = undefined;
      if (!finished) {
        result.hangs++;
        break;
      }
      result.lost += Math.max(0, result.entries - entriesBefore - (count - before));
      if (result.errors > 0) break;
    }
    if (failures.length > 0) result.failures = failures;
    return result;
  } finally {
    closing = true;
    for (const { child } of children) child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}
