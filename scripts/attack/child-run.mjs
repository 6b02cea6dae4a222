// One CLI call of the attack suite, as a child process that reports its own peak resident memory
// as it exits, and how the suite counts its outcome: a verdict (exit 0 or 1), a coded error (exit
// 2), a crash (a signal, a stack trace, INTERNAL, another exit status) or a hang (killed at the
// deadline); its peak memory against the budget (CITEPROOF_MAX_MEMORY_MB, default 1024 MiB).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const cli = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
// The child's own high-water mark (VmHWM of its memory map, in kB): getrusage's maxRSS starts at the
// parent's resident size when the child is forked, so a large suite process would count as the child's.
// (No `?` in it: a data: URL ends its module text there.)
const RSS_HOOK =
  "data:text/javascript,process.on('exit',()=>{const s=process.getBuiltinModule('fs').readFileSync('/proc/self/status','utf8');const m=/VmHWM:\\s+(\\d+)/.exec(s);process.stderr.write('\\nmaxrss='+(m&&m[1]||process.resourceUsage().maxRSS)+'\\n')})";
const MAX_OUTPUT = 64 << 20;

/** The memory cap a hostile input must stay under, in MiB. */
export function memoryCapMb() {
  const set = Number(process.env.CITEPROOF_MAX_MEMORY_MB);
  return Number.isFinite(set) && set > 0 ? set : 1024;
}

/** Runs `citeproof args` without blocking the event loop (a server in this process keeps serving). */
export function runCli(args, { timeoutMs, env, cwd } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", RSS_HOOK, cli, ...args], {
      env: { ...process.env, ...env },
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      if (stdout.length < MAX_OUTPUT) stdout += d;
    });
    child.stderr.on("data", (d) => {
      if (stderr.length < MAX_OUTPUT) stderr += d;
    });
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      const kb = Number(/maxrss=(\d+)/.exec(stderr)?.[1] ?? 0);
      resolve({ status, signal, stdout, stderr, hung, peakMb: Math.round(kb / 1024) });
    });
  });
}

/** Adds one run's outcome to `stats` (tried, verdicts, coded, crashes, hangs, peakMb, overCap, worst). */
export function classify(stats, name, run) {
  stats.tried++;
  const trace = /\n\s+at .+\(.+:\d+:\d+\)/.test(run.stderr);
  if (run.hung) {
    stats.hangs++;
    stats.worst += `${name}: hang; `;
  } else if (run.signal || trace || ![0, 1, 2].includes(run.status) || /"INTERNAL"/.test(run.stdout)) {
    stats.crashes++;
    stats.worst += `${name}: ${run.signal ?? run.status}; `;
  } else if (run.status === 2) stats.coded++;
  else stats.verdicts++;
  stats.peakMb = Math.max(stats.peakMb ?? 0, run.peakMb);
  if (run.peakMb > memoryCapMb()) {
    stats.overCap = (stats.overCap ?? 0) + 1;
    stats.worst += `${name}: ${run.peakMb} MB; `;
  }
}

/** Runs `task(item)` over `items`, `width` at a time, in order of start. */
export async function inPool(items, width, task) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/** The counts `classify` adds to, with escapes (reads outside) counted by the caller. */
export function emptyStats() {
  return {
    tried: 0,
    verdicts: 0,
    coded: 0,
    crashes: 0,
    hangs: 0,
    escapes: 0,
    peakMb: 0,
    overCap: 0,
    worst: "",
  };
}
