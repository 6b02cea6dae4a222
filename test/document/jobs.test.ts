// How many workers an extraction may use, and how the pages are dealt to them (pure, no engine).
import { describe, expect, it } from "vitest";
import {
  dealPages,
  defaultJobs,
  MAX_JOBS,
  PAGE_RUN,
  parseJobs,
  resolveJobs,
} from "../../src/document/jobs.js";

describe("jobs", () => {
  it("takes 1 to MAX_JOBS and refuses 0, too many and text with USAGE naming the setting", () => {
    expect(parseJobs("3")).toBe(3);
    expect(parseJobs(MAX_JOBS)).toBe(MAX_JOBS);
    for (const bad of ["0", "1000", "two", "1.5", "-2", "", 0, 2.5]) {
      expect(() => parseJobs(bad)).toThrow(
        expect.objectContaining({ code: "USAGE", details: { option: "jobs", limit: MAX_JOBS } }),
      );
      expect(() => parseJobs(bad)).toThrow(/^jobs must be a whole number from 1 to 16/);
    }
    expect(() => parseJobs("x", "CITEPROOF_JOBS")).toThrow(/^CITEPROOF_JOBS must be/);
  });

  it("the option wins over CITEPROOF_JOBS, which wins over the idle cores", () => {
    expect(resolveJobs(2, { CITEPROOF_JOBS: "3" })).toBe(2);
    expect(resolveJobs(undefined, { CITEPROOF_JOBS: "3" })).toBe(3);
    expect(() => resolveJobs(undefined, { CITEPROOF_JOBS: "many" })).toThrow(/CITEPROOF_JOBS must be/);
    const jobs = resolveJobs(undefined, {});
    expect(jobs).toBeGreaterThanOrEqual(1);
    expect(jobs).toBeLessThanOrEqual(4);
  });

  it("the default counts the cores not already busy, from 1 to 4", () => {
    expect(defaultJobs(2, 0)).toBe(2);
    expect(defaultJobs(2, 0.8)).toBe(1);
    expect(defaultJobs(2, 12)).toBe(1);
    expect(defaultJobs(16, 0.5)).toBe(4);
    expect(defaultJobs(8, 5)).toBe(3);
  });

  it("deals runs of consecutive pages in turn, each worker's list in page order", () => {
    const pages = Array.from({ length: 3 * PAGE_RUN + 5 }, (_, i) => i + 1);
    const [first, second] = dealPages(pages, 2);
    expect(first).toEqual([...pages.slice(0, PAGE_RUN), ...pages.slice(2 * PAGE_RUN, 3 * PAGE_RUN)]);
    expect(second).toEqual([...pages.slice(PAGE_RUN, 2 * PAGE_RUN), ...pages.slice(3 * PAGE_RUN)]);
    // A worker with nothing to do is not started.
    expect(dealPages(pages.slice(0, PAGE_RUN), 4)).toHaveLength(1);
  });
});
