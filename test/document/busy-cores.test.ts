// The cores other processes keep busy, from two snapshots of the kernel's counters (pure arithmetic).
import { describe, expect, it } from "vitest";
import {
  busyCoresNow,
  busyElsewhere,
  type CpuSnapshot,
  cpuSnapshot,
  MAX_WINDOW_MS,
  MIN_WINDOW_MS,
} from "../../src/document/busy-cores.js";

const at = (atMs: number, busyMs: number, ownMs: number): CpuSnapshot => ({ atMs, busyMs, ownMs });

describe("busy cores", () => {
  it("counts every core's busy time less this process's own over the window", () => {
    // 200 ms: the cores were busy 300 ms in all, 100 ms of it this process's: one core elsewhere.
    expect(busyElsewhere(at(1000, 5000, 40), at(1200, 5300, 140))).toBeCloseTo(1, 5);
    // Only this process was busy: nothing elsewhere, whatever it used.
    expect(busyElsewhere(at(0, 0, 0), at(100, 180, 180))).toBe(0);
    // Counters tick coarser than the process's own clock: a negative share is nothing busy.
    expect(busyElsewhere(at(0, 0, 0), at(100, 170, 180))).toBe(0);
  });

  it("says nothing for a window too short or too long to tell", () => {
    expect(busyElsewhere(at(0, 0, 0), at(MIN_WINDOW_MS - 1, 10, 0))).toBeUndefined();
    expect(busyElsewhere(at(0, 0, 0), at(MAX_WINDOW_MS + 1, 10, 0))).toBeUndefined();
    expect(busyElsewhere(at(0, 0, 0), at(MIN_WINDOW_MS, 0, 0))).toBe(0);
  });

  it("reads counters that only grow, and answers a number of cores", () => {
    const a = cpuSnapshot();
    const b = cpuSnapshot();
    expect(b.atMs).toBeGreaterThanOrEqual(a.atMs);
    expect(b.busyMs).toBeGreaterThanOrEqual(a.busyMs);
    expect(b.ownMs).toBeGreaterThanOrEqual(a.ownMs);
    const busy = busyCoresNow();
    expect(Number.isFinite(busy)).toBe(true);
    expect(busy).toBeGreaterThanOrEqual(0);
  });
});
