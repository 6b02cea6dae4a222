// The located quote check over the generated fixture, whose lines sit at known positions (bp from
// the page's bottom-left): see fixtures/src/cite-check.tex.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Citation, CiteCheckInput } from "../../src/checks/cite-check/request.js";
import type { CiteCheckReport } from "../../src/checks/cite-check/result.js";
import { citeCheck } from "../../src/checks/cite-check/run.js";
import { closeEngine } from "../../src/document/engine-client.js";
import { openDocument } from "../../src/document/open.js";
import { fixture, listFiles, repoRoot, tempDir } from "../helpers/fixture-files.js";

const PDF = fixture("cite-check");
const LINE_A = "The quick brown fox jumps over the lazy dog.";
const BOX_A = { left: 66, bottom: 690, right: 400, top: 716 };
const PHRASE = "A repeated phrase stands here.";
const PAGE = { left: 0, bottom: 0, right: 612, top: 792 };
const BUDGET_LINE = "Budget words repeat on every line.";

function input(citations: Citation[], extra: Partial<CiteCheckInput> = {}): CiteCheckInput {
  return {
    source: { path: PDF },
    citations,
    normalization: "none",
    timeoutMs: 60_000,
    maxOutputChars: 200_000,
    ...extra,
  };
}

let cache: ReturnType<typeof tempDir>;
beforeAll(() => {
  cache = tempDir();
});
afterAll(() => cache.remove());

async function check(citations: Citation[], extra: Partial<CiteCheckInput> = {}): Promise<CiteCheckReport> {
  return citeCheck(input(citations, extra), { allowRoots: [repoRoot], cacheDir: cache.dir });
}

describe("native text with glyph geometry", () => {
  it("verifies an exact quote inside its box, with offsets into the page's reading-order text", async () => {
    const report = await check([{ id: "a", quote: LINE_A, page: 1, bounding_box: BOX_A }]);
    const [r] = report.results;
    expect(r).toMatchObject({ id: "a", verdict: "verified_exact", reason: "exact_in_box", page: 1 });
    expect(r.source_sha256).toBe(report.source.sha256);
    expect(r.evidence_layer).toMatchObject({ kind: "native_text", engine: "pdfium" });
    expect(r.locations).toHaveLength(1);
    const loc = r.locations[0];
    expect(loc.geometry_level).toBe("glyph");
    expect(loc.text).toBe(LINE_A);
    const doc = await openDocument(PDF, { noCache: true, pages: [1] });
    expect(doc.pages[0]!.text.slice(loc.start_utf16, loc.end_utf16)).toBe(LINE_A);
    // The line's glyphs sit at x from 72, baseline near 700.
    expect(loc.boxes).toHaveLength(1);
    expect(loc.boxes[0].left).toBeGreaterThan(71.5);
    expect(loc.boxes[0].left).toBeLessThan(73);
    expect(loc.boxes[0].bottom).toBeGreaterThan(BOX_A.bottom);
    expect(loc.boxes[0].top).toBeLessThan(BOX_A.top);
    expect(report.summary.verified_exact).toBe(1);
  });

  it("matches whitespace differences only with whitespace_v1 (double space, line break)", async () => {
    const lines = { left: 66, bottom: 525, right: 400, top: 565 };
    const citations: Citation[] = [
      { quote: "The quick  brown fox", page: 1, bounding_box: BOX_A },
      { quote: "the line breaks between", page: 1, bounding_box: lines },
      { quote: "the line\nbreaks between", page: 1, bounding_box: lines },
    ];
    const none = await check(citations);
    expect(none.results.map((r) => [r.verdict, r.reason])).toEqual([
      ["unmatched", "not_on_page"],
      ["unmatched", "not_on_page"],
      ["verified_exact", "exact_in_box"],
    ]);
    const ws = await check(citations, { normalization: "whitespace_v1" });
    expect(ws.results.map((r) => [r.verdict, r.reason])).toEqual([
      ["verified_normalized", "normalized_in_box"],
      ["verified_normalized", "normalized_in_box"],
      // Exact matches take priority.
      ["verified_exact", "exact_in_box"],
    ]);
    // The observed text is the original; a span across the break has one box per line.
    expect(ws.results[0].locations[0].text).toBe("The quick brown fox");
    expect(ws.results[1].locations[0].text).toBe("the line\nbreaks between");
    expect(ws.results[1].locations[0].boxes).toHaveLength(2);
  });

  it("is case-sensitive", async () => {
    const report = await check([{ quote: "The Quick brown fox", page: 1, bounding_box: BOX_A }], {
      normalization: "whitespace_v1",
    });
    expect(report.results[0]).toMatchObject({ verdict: "unmatched", reason: "not_on_page" });
  });

  it("does not support a quote outside the box or only half inside it", async () => {
    const report = await check([
      { quote: LINE_A, page: 1, bounding_box: { left: 296, bottom: 394, right: 560, top: 416 } },
      { quote: LINE_A, page: 1, bounding_box: { ...BOX_A, right: 180 } },
      { quote: LINE_A, page: 1, bounding_box: { ...BOX_A, bottom: 700 } },
    ]);
    for (const r of report.results) {
      expect(r).toMatchObject({ verdict: "unmatched", reason: "outside_box", locations: [] });
      expect(r.message).toContain("occurs 1 time on page 1");
    }
  });

  it("reports both occurrences of a phrase that occurs twice, and only the one inside a tighter box", async () => {
    const report = await check([
      { quote: PHRASE, page: 1, bounding_box: PAGE },
      { quote: PHRASE, page: 1, bounding_box: { left: 66, bottom: 640, right: 400, top: 665 } },
    ]);
    const [both, one] = report.results;
    expect(both.verdict).toBe("verified_exact");
    expect(both.locations).toHaveLength(2);
    const [first, second] = both.locations;
    expect(first.boxes[0].bottom).toBeGreaterThan(640);
    expect(second.boxes[0].top).toBeLessThan(615);
    expect(second.start_utf16).toBeGreaterThan(first.end_utf16);
    expect(one.locations).toHaveLength(1);
    expect(one.locations[0].start_utf16).toBe(first.start_utf16);
  });

  it("reads boxes in default user space on a page with /Rotate 90", async () => {
    const quote = "Rotated page words stay in user space.";
    const report = await check([
      { quote, page: 2, bounding_box: BOX_A },
      // Where the line appears on the displayed (turned) page, bottom-left origin: not user space.
      { quote, page: 2, bounding_box: { left: 686, bottom: 330, right: 716, top: 545 } },
    ]);
    expect(report.results[0]).toMatchObject({ verdict: "verified_exact", reason: "exact_in_box" });
    expect(report.results[1]).toMatchObject({ verdict: "unmatched", reason: "outside_box" });
    const b = report.results[0].locations[0].boxes[0];
    expect(b.left).toBeGreaterThan(71.5);
    expect(b.top).toBeLessThan(716);
  });

  it("reads boxes in default user space, not relative to an offset CropBox", async () => {
    const quote = "Cropped page words keep their place.";
    const report = await check([
      { quote, page: 3, bounding_box: { left: 144, bottom: 490, right: 400, top: 516 } },
      // The same box measured from the CropBox origin (100, 100).
      { quote, page: 3, bounding_box: { left: 44, bottom: 390, right: 300, top: 416 } },
    ]);
    expect(report.results[0]).toMatchObject({ verdict: "verified_exact" });
    expect(report.results[0].locations[0].boxes[0].left).toBeGreaterThan(149.5);
    expect(report.results[1]).toMatchObject({ verdict: "unmatched", reason: "outside_box" });
  });

  it("is insufficient, not unmatched, on an image-only page without OCR", async () => {
    const report = await check([
      { quote: "Scanned pages still carry readable words", page: 4, bounding_box: PAGE },
      { quote: LINE_A, page: 1, bounding_box: BOX_A },
    ]);
    expect(report.results[0]).toMatchObject({ verdict: "insufficient_evidence", reason: "no_text_layer" });
    // A supported quote elsewhere stands.
    expect(report.results[1].verdict).toBe("verified_exact");
    expect(report.ocr_pages).toEqual([]);
  });

  it("says a page beyond the document does not support the quote", async () => {
    const report = await check([{ quote: LINE_A, page: 8, bounding_box: BOX_A }]);
    expect(report.results[0]).toMatchObject({ verdict: "unmatched", reason: "page_out_of_range" });
    expect(report.results[0].message).toContain("7 pages");
    expect(report.source.pages).toBe(7);
  });

  it("accepts a box equal to the glyph boxes, within 0.0001 pt, and not 0.0002 pt inside", async () => {
    const first = await check([{ quote: LINE_A, page: 1, bounding_box: BOX_A }]);
    const tight = first.results[0].locations[0].boxes[0];
    const shrink = (d: number) => ({
      left: tight.left + d,
      bottom: tight.bottom + d,
      right: tight.right - d,
      top: tight.top - d,
    });
    const report = await check([
      { quote: LINE_A, page: 1, bounding_box: tight },
      { quote: LINE_A, page: 1, bounding_box: shrink(0.00008) },
      { quote: LINE_A, page: 1, bounding_box: { ...tight, right: tight.right - 0.0002 } },
      { quote: LINE_A, page: 1, bounding_box: { ...tight, bottom: tight.bottom + 0.0002 } },
    ]);
    expect(report.results.map((r) => r.verdict)).toEqual([
      "verified_exact",
      "verified_exact",
      "unmatched",
      "unmatched",
    ]);
  });
});

describe("source hash, budget and pages", () => {
  it("decides a hash mismatch before any extraction", async () => {
    const fresh = tempDir();
    try {
      const report = await citeCheck(
        input([{ quote: LINE_A, page: 1, bounding_box: BOX_A }], { expectedSha256: "0".repeat(64) }),
        { allowRoots: [repoRoot], cacheDir: fresh.dir },
      );
      expect(report.results[0]).toMatchObject({
        verdict: "insufficient_evidence",
        reason: "source_hash_mismatch",
        evidence_layer: null,
      });
      expect(report.source.pages).toBeNull();
      expect(listFiles(fresh.dir)).toEqual([]);
      const right = await citeCheck(
        input([{ quote: LINE_A, page: 1, bounding_box: BOX_A }], { expectedSha256: report.source.sha256 }),
        { allowRoots: [repoRoot], cacheDir: fresh.dir },
      );
      expect(right.results[0].verdict).toBe("verified_exact");
    } finally {
      fresh.remove();
    }
  });

  it("caps locations at eight and turns over-budget proof into insufficient evidence", async () => {
    const all = { quote: BUDGET_LINE, page: 5, bounding_box: PAGE };
    const roomy = await check([all]);
    expect(roomy.results[0].locations).toHaveLength(8);
    expect(roomy.results[0].message).toContain("12 occurrences");
    const size = JSON.stringify(roomy.results[0].locations).length;
    expect(size).toBeGreaterThan(1000);
    expect(roomy.output_chars).toBe(size);

    const edge = await check([all], { maxOutputChars: size });
    expect(edge.results[0].verdict).toBe("verified_exact");
    const over = await check([all], { maxOutputChars: size - 1 });
    expect(over.results[0]).toMatchObject({
      verdict: "insufficient_evidence",
      reason: "output_budget_exceeded",
      locations: [],
    });
    expect(over.output_chars).toBe(0);

    // Results are taken in order: a small proof that fits stands before one that does not.
    const mixed = await check([{ quote: LINE_A, page: 1, bounding_box: BOX_A }, all], {
      maxOutputChars: 1000,
    });
    expect(mixed.results.map((r) => r.verdict)).toEqual(["verified_exact", "insufficient_evidence"]);
    expect(mixed.output_chars).toBeLessThanOrEqual(1000);
  });
});

describe("pages read", () => {
  const PAGES = fixture("cite-pages");
  const line = (n: number): Citation => ({
    quote: `Line on page ${n} of the page limit fixture.`,
    page: n,
    bounding_box: { left: 60, bottom: 600, right: 560, top: 740 },
  });

  it("extracts only the cited pages, and nothing on a second run", async () => {
    const fresh = tempDir();
    try {
      const run = () =>
        citeCheck(
          { ...input([line(3), line(7), line(3)]), source: { path: PAGES } },
          { allowRoots: [repoRoot], cacheDir: fresh.dir },
        );
      const cold = await run();
      expect(cold.results.map((r) => r.verdict)).toEqual([
        "verified_exact",
        "verified_exact",
        "verified_exact",
      ]);
      expect(cold.extracted_pages).toBe(2);
      expect(cold.source.pages).toBe(21);
      const pageFiles = listFiles(fresh.dir).filter((f) => /p\d{5}\./.test(f));
      expect(pageFiles.map((f) => f.replace(/^.*\/(p\d+)\..*$/, "$1")).sort()).toEqual([
        "p00003",
        "p00003",
        "p00007",
        "p00007",
      ]);
      const warm = await run();
      expect(warm.extracted_pages).toBe(0);
      expect(warm.results).toEqual(cold.results);
    } finally {
      fresh.remove();
    }
  });

  it("checks 20 distinct pages in one request", async () => {
    const citations = Array.from({ length: 20 }, (_, i) => line(i + 2));
    const report = await citeCheck(
      { ...input(citations), source: { path: PAGES } },
      { allowRoots: [repoRoot], noCache: true },
    );
    expect(report.summary.verified_exact).toBe(20);
    expect(report.extracted_pages).toBe(20);
  });
});

describe("deadline", () => {
  it("makes pages the deadline cut insufficient while pages already read stand", async () => {
    const fresh = tempDir();
    try {
      const one = { quote: LINE_A, page: 1, bounding_box: BOX_A };
      const two = { quote: "Rotated page words stay in user space.", page: 2, bounding_box: BOX_A };
      const warmed = await citeCheck(input([one]), { allowRoots: [repoRoot], cacheDir: fresh.dir });
      expect(warmed.results[0].verdict).toBe("verified_exact");
      // A deadline no extraction can meet (below the request minimum, so through the library only);
      // the extraction worker is closed first, so the engine has to start again.
      await closeEngine();
      const cut = await citeCheck(input([one, two], { timeoutMs: 1 }), {
        allowRoots: [repoRoot],
        cacheDir: fresh.dir,
      });
      expect(cut.results[0]).toMatchObject({ verdict: "verified_exact", reason: "exact_in_box" });
      expect(cut.results[1]).toMatchObject({ verdict: "insufficient_evidence", reason: "deadline_exceeded" });
    } finally {
      fresh.remove();
    }
  });
});
