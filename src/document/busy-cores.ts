/**
 * How many cores other processes keep busy now: every core's busy time from the kernel's counters
 * over a recent window, less this process's own CPU time over it. The 1-minute load average, the
 * fallback, lags: for most of a minute after a heavy process ends it still counts that process's
 * cores as busy, so a command run right after another would take one worker where two were free.
 */
import { cpus, loadavg } from "node:os";

/** The counters at one moment, in milliseconds. */
export interface CpuSnapshot {
  /** When it was taken (performance.now()). */
  atMs: number;
  /** Busy time summed over every core (user, nice, system, interrupts: all but idle). */
  busyMs: number;
  /** This process's CPU time, all its threads. */
  ownMs: number;
}

export function cpuSnapshot(): CpuSnapshot {
  let busy = 0;
  for (const { times } of cpus()) busy += times.user + times.nice + times.sys + times.irq;
  const own = process.cpuUsage();
  return { atMs: performance.now(), busyMs: busy, ownMs: (own.user + own.system) / 1000 };
}

/** Below this window the counters' tick (10 ms a core on Linux) is most of what they say. */
export const MIN_WINDOW_MS = 40;
/** Beyond this window the measure is an average over a past that says little about now. */
export const MAX_WINDOW_MS = 5000;

/**
 * The cores other processes kept busy between two snapshots (a fraction, at least 0), or undefined
 * when the window is too short or too long to tell.
 */
export function busyElsewhere(before: CpuSnapshot, after: CpuSnapshot): number | undefined {
  const window = after.atMs - before.atMs;
  if (!(window >= MIN_WINDOW_MS && window <= MAX_WINDOW_MS)) return undefined;
  const others = after.busyMs - before.busyMs - (after.ownMs - before.ownMs);
  return Math.max(0, others / window);
}

/** Taken when this module loads (early in a command), so a command's own start-up is the window. */
let baseline = cpuSnapshot();

/**
 * The cores busy elsewhere, measured since the baseline; where that window cannot tell, the load
 * average. A baseline too old (a resident process) is replaced, so the next look measures again.
 */
export function busyCoresNow(): number {
  const now = cpuSnapshot();
  const measured = busyElsewhere(baseline, now);
  if (now.atMs - baseline.atMs > MAX_WINDOW_MS) baseline = now;
  return measured ?? loadavg()[0];
}
