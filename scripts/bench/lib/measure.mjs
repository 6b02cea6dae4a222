// Runs a command as a child under GNU time and reports what it cost: CPU (user + sys, every thread
// of the child), wall time, time to the first byte on stdout, and peak resident memory.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { benchOut } from "./paths.mjs";

const GNU_TIME = "/usr/bin/time";

export function haveGnuTime() {
  return existsSync(GNU_TIME);
}

let serial = 0;

/**
 * Runs `command args` and resolves to {code, stdout, stderr, wallS, firstOutputS, userS, sysS, cpuS,
 * maxRssMb}. stdout is kept (for parsing) unless `discardStdout`.
 */
export function measure(command, args, { cwd, env, discardStdout = false, timeoutMs = 30 * 60_000 } = {}) {
  const report = join(benchOut("tmp"), `time-${process.pid}-${serial++}.txt`);
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    let firstOutput;
    const child = spawn(GNU_TIME, ["-f", "%e %U %S %M", "-o", report, command, ...args], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const out = [];
    const err = [];
    child.stdout.on("data", (chunk) => {
      if (firstOutput === undefined) firstOutput = process.hrtime.bigint();
      if (!discardStdout) out.push(chunk);
    });
    child.stderr.on("data", (chunk) => err.push(chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const ended = process.hrtime.bigint();
      let fields;
      try {
        // GNU time prefixes a "Command exited with non-zero status" line when the child fails.
        const lines = readFileSync(report, "utf8").trim().split("\n");
        fields = lines[lines.length - 1].split(" ").map(Number);
      } catch {
        fields = [Number.NaN, Number.NaN, Number.NaN, Number.NaN];
      } finally {
        rmSync(report, { force: true });
      }
      const [, userS, sysS, maxRssKb] = fields;
      resolve({
        code: signal ? 128 : code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        wallS: Number(ended - started) / 1e9,
        firstOutputS: firstOutput === undefined ? Number.NaN : Number(firstOutput - started) / 1e9,
        userS,
        sysS,
        cpuS: userS + sysS,
        maxRssMb: maxRssKb / 1024,
      });
    });
  });
}

/** Runs `once` n times (sequentially) and returns every result; throws on the first failed run. */
export async function repeat(n, once, check = (r) => r.code === 0) {
  const results = [];
  for (let i = 0; i < n; i++) {
    const r = await once(i);
    if (!check(r)) {
      const lines = (r.stderr || r.stdout || "").trim().split("\n");
      const detail = [...lines.filter((l) => /error/i.test(l)).slice(0, 2), lines[lines.length - 1]].join(
        " | ",
      );
      throw new Error(`run ${i + 1} failed (exit ${r.code}${r.signal ? `, ${r.signal}` : ""}): ${detail}`);
    }
    results.push(r);
  }
  return results;
}

/**
 * Runs each of `runners` in turn, `n` rounds over (a, b, a, b, ...), and returns each one's results:
 * on a shared machine, load that drifts during the bench then weighs on every figure alike, where
 * runs taken in blocks would put it all on one side of a ratio. `checks[k]` judges runner k's results
 * (exit 0 when absent).
 */
export async function interleave(n, runners, checks = []) {
  const results = runners.map(() => []);
  for (let round = 0; round < n; round++) {
    for (let k = 0; k < runners.length; k++) {
      const [r] = await repeat(1, () => runners[k](round), checks[k]);
      results[k].push(r);
    }
  }
  return results;
}

export function median(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return Number.NaN;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

export function medianOf(results, key) {
  return median(results.map((r) => r[key]));
}

export function maxOf(results, key) {
  return Math.max(...results.map((r) => r[key]));
}
