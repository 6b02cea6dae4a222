// The layout rules run on the main thread and keep the call's deadline: on a page of 20,000
// parenthesised labels, each opening a caption row every 200 labels, a deadline that passes
// part-way stops them with EXTRACTION_TIMEOUT. The clock is a counter (each reading advances it
// by 1 ms), so the test does not depend on how fast the machine is.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labelFloodPdf } from "../../scripts/attack/label-flood.mjs";
import type { OpenedDocument } from "../../src/document/open.js";
import { documentAnchors, openForAnchors } from "../../src/layout/anchors.js";
import { Deadline } from "../../src/util/deadline.js";
import { tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir();
let doc: OpenedDocument;
beforeAll(async () => {
  const pdf = join(tmp.dir, "labels.pdf");
  writeFileSync(pdf, labelFloodPdf(20_000));
  doc = await openForAnchors(pdf, { noCache: true, withGeometry: true });
});
afterAll(() => tmp.remove());

/** A deadline `steps` readings of the clock away: the clock moves 1 ms each time it is read. */
function steppedDeadline(steps: number): { deadline: Deadline; readings: () => number } {
  let now = 0;
  const deadline = new Deadline(steps, () => now++);
  return { deadline, readings: () => now };
}

describe("the layout rules keep the deadline", () => {
  it("stop with EXTRACTION_TIMEOUT part-way through one page's candidates", async () => {
    const { deadline, readings } = steppedDeadline(200);
    await expect(documentAnchors(doc, { deadline })).rejects.toMatchObject({
      code: "EXTRACTION_TIMEOUT",
      details: { option: "timeout_ms", limit: 200 },
    });
    // The page was not done in one step: the rules checked the clock within it, then stopped.
    expect(readings()).toBeGreaterThan(200);
    expect(readings()).toBeLessThan(220);
  });

  it("finish, with the same page, when the deadline allows it", async () => {
    const { deadline, readings } = steppedDeadline(10_000_000);
    const record = await documentAnchors(doc, { deadline });
    expect(record.rejectedEquationCandidates.length + record.equations.length).toBeGreaterThan(0);
    // Every candidate token was a check: far more than one per page.
    expect(readings()).toBeGreaterThan(100);
  });
});
