// cite-check on scans (fixtures/src/scan-layers.tex): a text layer that is only a stamp over a scan
// is read as no text under auto OCR, and without OCR a quote it lacks is insufficient_evidence,
// never unmatched.
import { describe, expect, it } from "vitest";
import type { Citation, CiteCheckInput } from "../../src/checks/cite-check/request.js";
import { citeCheck } from "../../src/checks/cite-check/run.js";
import { fixture, repoRoot } from "../helpers/fixture-files.js";
import { renderingSuiteCache } from "../helpers/render-suite.js";

const PAGE = { left: 0, bottom: 0, right: 612, top: 792 };
const cache = renderingSuiteCache();

function check(citations: Citation[], extra: Partial<CiteCheckInput> = {}) {
  return citeCheck(
    {
      source: { path: fixture("scan-layers") },
      citations,
      normalization: "whitespace_v1",
      timeoutMs: 120_000,
      maxOutputChars: 200_000,
      ...extra,
    },
    { allowRoots: [repoRoot], cacheDir: cache.dir },
  );
}

describe("a scan whose text layer is a stamp", () => {
  it("is incomplete_text_layer without OCR for words the stamp lacks, and verifies the stamp's own words", async () => {
    const report = await check([
      { quote: "The learner receives examples", page: 1, bounding_box: PAGE },
      { quote: "ARCHIVE COPY 1988-04", page: 1, bounding_box: PAGE },
      { quote: "Every run used the same seed", page: 3, bounding_box: PAGE },
    ]);
    expect(report.results.map((r) => [r.verdict, r.reason])).toEqual([
      ["insufficient_evidence", "incomplete_text_layer"],
      ["verified_exact", "exact_in_box"],
      ["insufficient_evidence", "incomplete_text_layer"],
    ]);
    expect(report.ocr_pages).toEqual([]);
  });

  it("is read by OCR under auto, as a page with no text is", async () => {
    const report = await check(
      [
        { quote: "The learner receives examples", page: 1, bounding_box: PAGE },
        { quote: "the labels carry almost no information", page: 2, bounding_box: PAGE },
      ],
      { ocr: "auto" },
    );
    expect(report.ocr_pages).toEqual([1]);
    const [scan, layer] = report.results;
    expect(scan.verdict).toMatch(/^verified_/);
    expect(scan.evidence_layer?.kind).toBe("ocr");
    // The invisible OCR layer on page 2 is native text to cite-check: read as it stands.
    expect(layer.verdict).toMatch(/^verified_/);
    expect(layer.evidence_layer?.kind).toBe("native_text");
  }, 120_000);
});
