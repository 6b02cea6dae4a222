import { afterAll, describe, expect, it } from "vitest";
import { REASONS, VERDICTS } from "../../src/checks/verdicts.js";
import {
  checkContext,
  checkContextFromRecord,
  checkRecord,
  verifyEvidence,
} from "../../src/checks/verify.js";
import { openDocument } from "../../src/document/open.js";
import { documentAnchors } from "../../src/layout/anchors.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";

const cache = tempDir("citeproof-eqcheck-");
afterAll(() => cache.remove());

async function check(name: string, label: string, kind: "equation" | "figure" = "equation") {
  const doc = await openDocument(fixture(name), { cacheDir: cache.dir });
  const result = await checkRecord(checkContext(doc), { id: "x", kind, label });
  expect(VERDICTS).toContain(result.verdict);
  expect(REASONS).toContain(result.reason);
  expect(result.message).not.toContain("\n");
  expect(result.id).toBe("x");
  expect(result.kind).toBe(kind);
  return result;
}

describe("the equation check", () => {
  it("passes a label printed beside a displayed equation, and says where", async () => {
    const r = await check("eq-sections", "2.1a");
    expect([r.verdict, r.reason]).toEqual(["PASS", "found"]);
    expect(r.message).toBe("equation (2.1a) is printed beside a displayed equation on page 2");
    expect(r.evidence.pages).toEqual([2]);
    const [place] = r.evidence.places as { labelBox: { left: number }; equationBox: { right: number } }[];
    expect(place.equationBox.right).toBeLessThan(place.labelBox.left);
  });

  it("passes left-side labels and appendix labels as printed", async () => {
    expect((await check("eq-leqno", "4b")).verdict).toBe("PASS");
    expect((await check("eq-sections", "A.3")).verdict).toBe("PASS");
    expect((await check("eq-sections", "7")).verdict).toBe("PASS");
  });

  it("fails a label seen only where it is no equation's label, naming the pages and every reason", async () => {
    const r = await check("eq-sections", "3");
    expect([r.verdict, r.reason]).toEqual(["FAIL", "equation-unresolved"]);
    expect(r.message).toBe(
      "equation (3) is unresolved: the label was seen on pages 1 and 3 but extraction did not accept it as a displayed equation's label " +
        "(no-display, no-math, not-at-column-edge, not-centred, page-margin, text-after-label); this is no evidence that the paper lacks it",
    );
    expect((r.evidence.sightings as unknown[]).length).toBe(4);
  });

  it("fails a table row's number as tabular", async () => {
    const r = await check("eq-sections", "4");
    expect(r.reason).toBe("equation-unresolved");
    expect(r.message).toContain("(no-math, not-at-column-edge, tabular)");
  });

  it("fails a subequation parent, pointing at the labels the document prints", async () => {
    const r = await check("eq-sections", "2.1");
    expect([r.verdict, r.reason]).toEqual(["FAIL", "equation-unresolved"]);
    expect(r.message).toContain("extraction found no candidate with this label");
    expect(r.message).toContain("it prints (2.1a), (2.1b), not (2.1)");
    expect(r.message).toMatch(/this is no evidence that the paper lacks it$/);
  });

  it("fails a hyperref name that differs from the printed label", async () => {
    const r = await check("eq-leqno", "A.7");
    expect([r.verdict, r.reason]).toEqual(["FAIL", "equation-unresolved"]);
    expect(r.message).toContain("the document's accepted equation labels are");
  });

  it("says when no equation label in the document is supported", async () => {
    const r = await check("figures", "18");
    expect(r.message).toBe(
      "equation (18) is unresolved: extraction found no candidate with this label, and no equation label in this document is supported; this is no evidence that the paper lacks it",
    );
  });

  it.each([
    ["1-3", "is a range"],
    ["1, 2", "is a list"],
    ["", "is empty"],
    ["(3)", "keeps its parentheses"],
  ])("refuses the label %j as unsupported", async (label, why) => {
    const r = await check("eq-sections", label);
    expect([r.verdict, r.reason]).toEqual(["FAIL", "unsupported-equation-label"]);
    expect(r.message).toContain(why);
  });

  it("fails as unavailable against a stored record without anchors, and checks one with them", async () => {
    const doc = await openDocument(fixture("eq-sections"), { cacheDir: cache.dir });
    const old = checkContextFromRecord({ sha256: doc.sha256, pageCount: doc.pageCount, pages: doc.pages });
    const r = await checkRecord(old, { kind: "equation", label: "1.1" });
    expect([r.verdict, r.reason]).toEqual(["FAIL", "equation-evidence-unavailable"]);
    expect(r.message).toContain("start a new session");
    const f = await checkRecord(old, { kind: "figure", label: "1" });
    expect([f.verdict, f.reason]).toEqual(["FAIL", "equation-evidence-unavailable"]);
    const current = checkContextFromRecord({
      sha256: doc.sha256,
      pageCount: doc.pageCount,
      pages: doc.pages,
      anchors: await documentAnchors(doc),
    });
    expect((await checkRecord(current, { kind: "equation", label: "1.1" })).verdict).toBe("PASS");
  });
});

describe("the figure check", () => {
  it("passes a label a caption carries, in each caption style", async () => {
    for (const label of ["1", "2", "3", "4", "5", "6", "A.1"]) {
      const r = await check("figures", label, "figure");
      expect([label, r.verdict, r.reason]).toEqual([label, "PASS", "found"]);
    }
    const r = await check("figures", "6", "figure");
    expect(r.message).toBe(
      'a figure caption carries the label 6 on page 3 ("FIG. 6. Residuals of the calibration.")',
    );
  });

  it("fails a label no caption carries, saying what was seen", async () => {
    const sentence = await check("figures", "5.", "figure");
    expect(sentence.verdict).toBe("FAIL");
    const r = await check("figures", "9", "figure");
    expect([r.verdict, r.reason]).toEqual(["FAIL", "absent"]);
    expect(r.message).toContain('"FIGURE 9. This paragraph opens like a c…" on page 2 is not a caption');
    expect(r.message).toContain("the document's figure captions carry 1, 2, 3, 4, 5, 6, A.1");
    expect(r.message).toMatch(/this is no evidence that the paper lacks the figure$/);
    const t = await check("figures", "7", "figure");
    expect(t.reason).toBe("absent");
    const none = await check("eq-leqno", "1", "figure");
    expect(none.message).toContain("no figure caption was found in this document");
  });

  it("does not pass a table's number", async () => {
    expect((await check("eq-twocolumn", "3", "figure")).verdict).toBe("FAIL");
  });
});

describe("verifyEvidence with equation and figure records", () => {
  it("keeps input order across kinds and computes the anchors once", async () => {
    const doc = await openDocument(fixture("eq-twocolumn"), { noCache: true });
    const report = await verifyEvidence(doc, [
      { id: "a", kind: "equation", label: "5" },
      { id: "b", kind: "quotation", page: 1, text: "The controller adjusts the valve in small steps" },
      { id: "c", kind: "figure", label: "2" },
      { id: "d", kind: "equation", label: "6" },
      { id: "e", kind: "page", page: 3 },
    ]);
    expect(report.results.map((r) => [r.id, r.verdict, r.reason])).toEqual([
      ["a", "PASS", "found"],
      ["b", "PASS", "found"],
      ["c", "PASS", "found"],
      ["d", "FAIL", "equation-unresolved"],
      ["e", "FAIL", "no-such-page"],
    ]);
  });
});
