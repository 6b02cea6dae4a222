// Deciding few candidates in a fresh process runs with V8's optimizing compiler paused (its compiles
// cost more than they earn back there); many candidates with it taking only the hottest functions; a
// process that has decided before optimizes as usual; the pause and the late tier-up are always
// lifted, also when the deadline stops the rules. Each case
// loads the modules afresh, as a new process would have them. The clock records, each time the rules
// read it, whether the compiler was paused then.

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
  const flags = await import("../../src/document/worker-flags.js");
  return { ...anchors, optimizerPaused: flags.optimizerPaused, tiersUpLate: flags.tiersUpLate };
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
  it("pauses it for a fresh process's first decision of few candidates, then lifts it", async () => {
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

  it("does not pause it for more candidates than SMALL_DECIDE_TOKENS: the first decision tiers up late", async () => {
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
