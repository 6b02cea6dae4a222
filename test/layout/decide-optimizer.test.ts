// A fresh process's first decision of few candidates is told to the process's tuning as a short run
// (the CLI pauses V8's optimizing compiler for it: its compiles cost more than they earn back there);
// of many candidates as a long first decision (the CLI lets only the hottest functions optimize); a
// process that has decided before tells nothing; each is always ended, also when the deadline stops
// the rules. Each case loads the modules afresh, as a new process would have them, with a tuning that
// records what it is told. The clock records, each time the rules read it, whether a moment was held.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { labelFloodPdf } from "../../scripts/attack/label-flood.mjs";
import { Deadline } from "../../src/util/deadline.js";
import { tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir();
const few = join(tmp.dir, "few.pdf");
const many = join(tmp.dir, "many.pdf");
beforeAll(() => {
  writeFileSync(few, labelFloodPdf(60));
  writeFileSync(many, labelFloodPdf(2000));
});
afterAll(() => tmp.remove());

async function freshModules() {
  vi.resetModules();
  const anchors = await import("../../src/layout/anchors.js");
  const tuning = await import("../../src/document/process-tuning.js");
  const holds = { short: 0, long: 0 };
  const holding = (kind: keyof typeof holds) => () => {
    holds[kind]++;
    return () => {
      holds[kind]--;
    };
  };
  tuning.setProcessTuning({
    engineCompiles: () => () => {},
    shortRun: holding("short"),
    longFirstDecision: holding("long"),
  });
  return { ...anchors, optimizerPaused: () => holds.short > 0, tiersUpLate: () => holds.long > 0 };
}

/** A deadline whose clock notes whether the compiler was paused at each reading. */
function watchingDeadline(paused: () => boolean, totalMs = 60_000) {
  const seen: boolean[] = [];
  const deadline = new Deadline(totalMs, () => {
    seen.push(paused());
    return Date.now();
  });
  return { deadline, seen };
}

/** Decides the document's anchors, the compiler never paused while the rules run. */
async function expectOptimizedDecision(
  m: Awaited<ReturnType<typeof freshModules>>,
  doc: Parameters<Awaited<ReturnType<typeof freshModules>>["documentAnchors"]>[0],
): Promise<void> {
  const watch = watchingDeadline(m.optimizerPaused);
  await m.documentAnchors(doc, { deadline: watch.deadline });
  expect(watch.seen.length).toBeGreaterThan(0);
  expect(watch.seen).not.toContain(true);
}

describe("deciding anchors and the optimizing compiler", () => {
  it("tells a fresh process's first decision of few candidates as a short run (the CLI pauses it), then ends it", async () => {
    const m = await freshModules();
    const doc = await m.openForAnchors(few, { noCache: true, withGeometry: true });
    const first = watchingDeadline(m.optimizerPaused);
    const record = await m.documentAnchors(doc, { deadline: first.deadline });
    expect(record.rejectedEquationCandidates.length + record.equations.length).toBe(60);
    expect(first.seen).toContain(true);
    expect(m.optimizerPaused()).toBe(false);
    // The process has decided before: the next decision optimizes.
    await expectOptimizedDecision(m, doc);
  });

  it("tells a first decision of more candidates than SMALL_DECIDE_TOKENS as a long one (the CLI tiers up late)", async () => {
    const m = await freshModules();
    expect(2000).toBeGreaterThan(m.SMALL_DECIDE_TOKENS);
    const doc = await m.openForAnchors(many, { noCache: true, withGeometry: true });
    const late = watchingDeadline(m.tiersUpLate);
    const record = await m.documentAnchors(doc, { deadline: late.deadline });
    expect(record.rejectedEquationCandidates.length + record.equations.length).toBeGreaterThan(
      m.SMALL_DECIDE_TOKENS,
    );
    expect(late.seen).toContain(true);
    expect(m.tiersUpLate()).toBe(false);
    // Neither paused then, nor later; a later decision tiers up as usual.
    const again = watchingDeadline(m.tiersUpLate);
    await m.documentAnchors(doc, { deadline: again.deadline });
    expect(again.seen).not.toContain(true);
    await expectOptimizedDecision(m, doc);
  });

  it.each([
    ["the pause", few, "optimizerPaused"],
    ["the late tier-up", many, "tiersUpLate"],
  ] as const)("lifts %s when the deadline stops the rules", async (_label, pdf, held) => {
    const m = await freshModules();
    const doc = await m.openForAnchors(pdf, { noCache: true, withGeometry: true });
    let now = 0;
    const seen: boolean[] = [];
    const deadline = new Deadline(20, () => {
      seen.push(m[held]());
      return now++;
    });
    await expect(m.documentAnchors(doc, { deadline })).rejects.toMatchObject({ code: "EXTRACTION_TIMEOUT" });
    expect(seen).toContain(true);
    expect(m[held]()).toBe(false);
  });
});
