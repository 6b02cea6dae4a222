/**
 * SIGKILL trials over `source fetch`, `run assemble` and `batch --retry-errors`: after each kill the
 * run or the results file reads whole, nothing acknowledged is lost, and the next run finishes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: the attack suite is plain JavaScript.
import { killTrials } from "../../scripts/attack/kill-trials.mjs";

const dir = mkdtempSync(join(tmpdir(), "citeproof-kill-more-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SIGKILL over fetch, assemble and retry", () => {
  it("nothing torn or lost; the next run recovers", async () => {
    const stats = await killTrials(dir, { trials: 2, seed: 5, only: ["fetch", "assemble", "retry"] });
    expect(stats).toMatchObject({ tried: 6, verdicts: 6, crashes: 0, lost: 0 });
    expect(stats.killed).toBeGreaterThan(0);
  }, 240_000);
});
