// Many waiters on a stale session lock: `runLockTrials` starts `waiters` processes that each take
// the lock once per trial, every trial starting from a lock left by a process that is gone. A claim
// is lost when the shared count falls short of the number of entries, or two waiters were inside at once.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const waiter = fileURLToPath(new URL("./lock-waiter.mjs", import.meta.url));
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runLockTrials({ trials, waiters, seed = 1 }) {
  const dir = mkdtempSync(join(tmpdir(), "citeproof-locks-"));
  const session = join(dir, "session");
  mkdirSync(session);
  writeFileSync(join(dir, "count"), "0");
  const children = Array.from({ length: waiters }, (_, id) =>
    spawn(process.execPath, [waiter, dir, String(id), String(trials)], { stdio: "ignore" }),
  );
  const result = { trials, entries: 0, lost: 0, overlaps: 0, errors: 0, hangs: 0 };
  try {
    for (let t = 0; t < trials; t++) {
      const gone = spawnSync(process.execPath, ["-e", "0"]).pid;
      const nonce = `stale${seed}x${t}`;
      writeFileSync(
        join(session, ".lock"),
        JSON.stringify({ pid: gone, host: hostname(), nonce, since: "then" }),
      );
      const before = Number(readFileSync(join(dir, "count"), "utf8"));
      writeFileSync(join(dir, `go-${t}`), "");
      const started = Date.now();
      const done = () => Array.from({ length: waiters }, (_, id) => join(dir, `done-${t}-${id}`));
      while (!done().every((f) => existsSync(f))) {
        if (Date.now() - started > 30_000) {
          result.hangs++;
          return result;
        }
        await pause(2);
      }
      let entered = 0;
      for (const f of done()) {
        const r = JSON.parse(readFileSync(f, "utf8"));
        if (r.overlap) result.overlaps++;
        if (r.error) result.errors++;
        else entered++;
      }
      const after = Number(readFileSync(join(dir, "count"), "utf8"));
      result.entries += entered;
      result.lost += Math.max(0, entered - (after - before));
      rmSync(join(dir, "inside"), { force: true });
    }
    return result;
  } finally {
    for (const child of children) child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}
