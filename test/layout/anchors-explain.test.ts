// `explain`: every equation-label and caption candidate carries the features the decision read and the
// predicates that held, and deciding those features again gives the candidate's verdict. An explained
// record is decided afresh: a cached record (which holds no explanations) is neither read nor written.
import { readdirSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { openDocument } from "../../src/document/open.js";
import { documentAnchors } from "../../src/layout/anchors.js";
import { decideCaption } from "../../src/layout/caption-decision.js";
import { decideEquation } from "../../src/layout/equation-decision.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";

const cache = tempDir("citeproof-explain-");
afterAll(() => cache.remove());

describe("explained anchors", () => {
  it("give each candidate the features and predicates its verdict comes from", async () => {
    const doc = await openDocument(fixture("eq-leqno"), { noCache: true, withGeometry: true });
    const record = await documentAnchors(doc, { explain: true });
    const all = [...record.equations, ...record.rejectedEquationCandidates];
    expect(record.equations.length).toBeGreaterThan(0);
    expect(record.rejectedEquationCandidates.length).toBeGreaterThan(0);
    for (const c of all) {
      expect(c.explain).toBeDefined();
      const again = decideEquation(c.explain!.features);
      expect(again.decidedBy).toEqual(c.explain!.decidedBy);
      expect(again.reasons).toEqual("reasons" in c ? c.reasons : []);
    }
  });

  it("give each caption candidate its features and predicates, which decide it again", async () => {
    const doc = await openDocument(fixture("caption-forms"), { noCache: true, withGeometry: true });
    const record = await documentAnchors(doc, { explain: true });
    expect(record.figures.length).toBeGreaterThan(0);
    expect(new Set(record.rejectedCaptions.flatMap((c) => c.reasons)).size).toBeGreaterThan(1);
    for (const c of [...record.figures, ...record.rejectedCaptions]) {
      expect(c.explain).toBeDefined();
      const again = decideCaption(c.explain!.features);
      expect(again.decidedBy).toEqual(c.explain!.decidedBy);
      expect(again.reasons).toEqual("reasons" in c ? c.reasons : []);
      expect(c.explain!.features.languages.length).toBeGreaterThan(0);
    }
  });

  it("are decided afresh, and neither read from the cache nor written to it", async () => {
    const doc = await openDocument(fixture("eq-sections"), { cacheDir: cache.dir, withGeometry: true });
    const explained = await documentAnchors(doc, { explain: true });
    expect(readdirSync(doc.cache!.dir)).not.toContain("rec-anchors.bin");
    const plain = await documentAnchors(doc);
    expect(plain.equations.every((e) => e.explain === undefined)).toBe(true);
    expect(readdirSync(doc.cache!.dir)).toContain("rec-anchors.bin");
    const again = await documentAnchors(doc, { explain: true });
    expect(again.equations.length).toBe(explained.equations.length);
    expect(again.equations.every((e) => e.explain !== undefined)).toBe(true);
  });
});
