import { describe, expect, it } from "vitest";
import { computeAnchors, openForAnchors } from "../../src/layout/anchors.js";
import { fixture } from "../helpers/fixture-files.js";

describe("tokens at the text block's right edge", () => {
  it("judges no page again when tokens protrude a fraction past the block's edge, and keeps the verdicts", async () => {
    const doc = await openForAnchors(fixture("eq-edge-tokens"), { noCache: true });
    // Each page's geometry is asked for once to judge it, and once more for every page judged again.
    const asked = new Map<number, number>();
    const record = computeAnchors({
      sha256: doc.sha256,
      pageCount: doc.pageCount,
      pages: doc.pages,
      geometry: (page) => {
        asked.set(page, (asked.get(page) ?? 0) + 1);
        return doc.geometry.get(page);
      },
    });
    expect(asked.size).toBe(doc.pageCount);
    expect([...asked].filter(([, n]) => n > 1).map(([page]) => page)).toEqual([]);
    expect(record.equations.map((e) => `${e.label}@${e.page}`)).toEqual(["1@1", "2@1", `3@${doc.pageCount}`]);
    const prose = ["14", "15", "16", "17", "18", "19", "21", "22", "31", "32", "33", "34", "36", "37", "39"];
    expect(record.rejectedEquationCandidates.map((c) => c.label).sort()).toEqual(prose);
  });
});
