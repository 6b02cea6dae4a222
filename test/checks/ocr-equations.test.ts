// OCR in the equation check: on a scan (a page image with no text layer), an equation label the
// text layer cannot hold is looked for in the OCR reading of the page, decided by layout and read
// again from its own crop; a PASS says it came from OCR. Labels of enumerations, tables and prose
// stay unresolved, and without OCR nothing changes.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/checks/check-text.js";
import { ocrPages } from "../../src/checks/cite-check/ocr-evidence.js";
import { applyEquationOcr } from "../../src/checks/ocr-equations.js";
import { checkContext, verifyEvidence } from "../../src/checks/verify.js";
import { ocrProvenance } from "../../src/ocr/tesseract.js";
import { anchorsOperation } from "../../src/operations/anchors.js";
import { verifyPdf } from "../../src/reading/cited-pages-first.js";
import { openForChecks } from "../../src/reading/open-for-checks.js";
import { Deadline } from "../../src/util/deadline.js";
import { fixture } from "../helpers/fixture-files.js";
import { hugeImagePdf } from "../helpers/huge-image-pdf.js";
import { renderingSuiteCache } from "../helpers/render-suite.js";

/** The engine OCR runs with here: the system's tesseract when installed, else tesseract.js. */
const ENGINE = ocrProvenance().provider;

const SCAN = fixture("eq-scan");
const TOP = fixture("eq-scan-top");
const LAYER = fixture("eq-scan-layer");
const LABELS = ["1", "2", "3", "4", "5", "6", "7"];
const records = LABELS.map((label) => ({ kind: "equation" as const, label }));
const cache = renderingSuiteCache();

describe("verify --ocr on equation labels of a scan", () => {
  it("leaves every label unresolved without OCR, and reads none", async () => {
    const report = await verifyPdf(SCAN, records, { cacheDir: cache.dir });
    for (const r of report.results) {
      expect(r).toMatchObject({ verdict: "FAIL", reason: "equation-unresolved" });
      expect(r.evidence.ocr).toBeUndefined();
    }
  });

  it("passes the displays' labels from the OCR reading, says so, and refuses every trap", async () => {
    const report = await verifyPdf(SCAN, records, { cacheDir: cache.dir, ocr: "auto" });
    const [one, two, ...traps] = report.results;
    for (const [r, label] of [
      [one, "1"],
      [two, "2"],
    ] as const) {
      expect(r).toMatchObject({ verdict: "PASS", reason: "found" });
      expect(r.evidence).toMatchObject({
        label,
        pages: [1],
        layer: "ocr",
        textLayer: ["none"],
        ocr: { provider: ENGINE, model_file: "4.0.0_best_int/eng.traineddata.gz", dpi: 300 },
        places: [{ page: 1, side: "right", readings: [`(${label})`, `(${label})`, `(${label})`] }],
      });
      expect(r.message).toMatch(
        new RegExp(
          `^equation \\(${label}\\) is printed beside a displayed equation on page 1 in its OCR reading \\(tesseract(?:\\.js)? .*, 300 dpi\\), which can misread`,
        ),
      );
      const place = (
        r.evidence.places as { labelBox: { left: number }; equationBox: { right: number } }[]
      )[0];
      expect(place.labelBox.left).toBeGreaterThan(place.equationBox.right);
    }
    // The enumeration (3)-(5), the table cell (6) and the prose mention (7): OCR does not turn them.
    for (const r of traps) {
      expect(r).toMatchObject({
        verdict: "FAIL",
        reason: "equation-unresolved",
        evidence: { ocr: { found: false } },
      });
      expect(r.message).toContain("did not find it either");
      // The reading saw each of them, in running text or a table, not beside a display.
      expect((r.evidence.ocr as { sightings: unknown[] }).sightings).toEqual([
        expect.objectContaining({
          page: 2,
          printed: `(${r.evidence.label})`,
          reasons: expect.arrayContaining(["no-display"]),
        }),
      ]);
    }
  }, 180_000);

  it("reads the page and the labels again from the cache", async () => {
    const report = await verifyPdf(SCAN, records.slice(0, 2), { cacheDir: cache.dir, ocr: "tesseract" });
    expect(report.results.map((r) => r.verdict)).toEqual(["PASS", "PASS"]);
  });

  it("passes a draft's Eq. (2) in check-text", async () => {
    const doc = await openForChecks(SCAN, { cacheDir: cache.dir }, true);
    const report = await checkText(checkContext(doc), "The variance is bounded in Eq. (2).", undefined, {
      mode: "auto",
      doc,
      timeoutMs: 120_000,
    });
    expect(report.citations[0]).toMatchObject({ verdict: "PASS", evidence: { layer: "ocr" } });
  }, 120_000);

  it("lists the labels OCR finds with anchors --ocr, marked layer ocr, and nothing without it", async () => {
    const ctx = {
      cwd: process.cwd(),
      access: "anywhere" as const,
      open: { cacheDir: cache.dir },
      caller: "cli" as const,
    };
    const plain = await anchorsOperation.run({ pdf: SCAN }, ctx);
    expect(plain.equations).toEqual([]);
    expect(plain.ocrEquations).toBeUndefined();
    const input = { pdf: SCAN, ocr: "auto" as const };
    const report = await anchorsOperation.run(input, ctx);
    expect(report.ocrEquations?.map((e) => [e.label, e.page, e.side, e.layer])).toEqual([
      ["1", 1, "right", "ocr"],
      ["2", 1, "right", "ocr"],
    ]);
    expect(report.ocrEquations?.[0].readings).toEqual(["(1)", "(1)", "(1)"]);
    expect(report.ocr).toMatchObject({ provider: ENGINE, dpi: 300, pagesRead: [1, 2] });
    // The traps of page 2 (an enumeration, a table cell, a mention in prose) are not listed.
    expect(anchorsOperation.format(report, input)).toMatch(
      /equation labels read by OCR of the scanned pages 1-2 \(tesseract(?:\.js)? .*, 300 dpi; OCR can misread\) \(2\):\n {2}\(1\) {2}page 1, right/,
    );
  });

  it("stops at the deadline with the labels undecided, FLAG deadline, and the pages not read named", async () => {
    const doc = await openForChecks(SCAN, { noCache: true }, true);
    const report = await verifyEvidence(doc, records.slice(0, 1));
    const [r] = await applyEquationOcr(doc.pages, report.results, { doc, deadline: new Deadline(0) });
    expect(r).toMatchObject({
      verdict: "FLAG",
      reason: "deadline",
      evidence: {
        ocr: { found: false, pagesRead: [], pagesNotRead: [{ page: 1 }, { page: 2 }] },
        deadline: {
          step: "OCR",
          pagesNotRead: [1, 2],
          before: { verdict: "FAIL", reason: "equation-unresolved" },
        },
      },
    });
    expect(r.message).toBe(
      "not decided before the deadline (0 ms): OCR did not finish; pages 1-2 not read; try timeout_ms 60000",
    );
  });

  it("FLAGs deadline, never that OCR did not find them, when the deadline stops the labels' crops", async () => {
    // The pages' readings are in the cache; the deadline has passed before any crop of a label is read.
    const dir = join(cache.dir, "cut-labels");
    const doc = await openForChecks(SCAN, { cacheDir: dir }, true);
    const pages = await ocrPages(doc.source, [1, 2], { deadline: new Deadline(120_000), cache: doc.cache });
    expect([...pages.values()].map((o) => o.state)).toEqual(["ok", "ok"]);
    const report = await verifyEvidence(doc, records.slice(0, 1));
    const [r] = await applyEquationOcr(doc.pages, report.results, { doc, deadline: new Deadline(0) });
    expect(r).toMatchObject({
      verdict: "FLAG",
      reason: "deadline",
      evidence: { ocr: { found: false, pagesRead: [1, 2], labelsCut: true }, deadline: { pagesNotRead: [] } },
    });
    expect(r.evidence.ocr).not.toHaveProperty("pagesNotRead");
    expect(r.message).toBe(
      "not decided before the deadline (0 ms): OCR did not finish; try timeout_ms 60000",
    );
  });

  it("refuses a page image too large to render, with a coded reason", async () => {
    const pdf = join(cache.dir, "huge.pdf");
    writeFileSync(pdf, hugeImagePdf());
    const report = await verifyPdf(pdf, [{ kind: "equation", label: "1" }], { noCache: true, ocr: "auto" });
    expect(report.results[0]).toMatchObject({
      verdict: "FAIL",
      reason: "equation-unresolved",
      evidence: { ocr: { found: false, pagesNotRead: [{ page: 1, code: "OCR_IMAGE_TOO_LARGE" }] } },
    });
  });
});

describe("verify --ocr on a scan whose display opens a page", () => {
  it("passes the row that opens page 2 at the text block's top, and refuses the running head's (7)", async () => {
    const report = await verifyPdf(
      TOP,
      ["1", "2", "7"].map((label) => ({ kind: "equation" as const, label })),
      { cacheDir: cache.dir, ocr: "auto", timeoutMs: 600_000 },
    );
    const [one, two, head] = report.results;
    expect(one).toMatchObject({ verdict: "PASS", evidence: { pages: [1], layer: "ocr" } });
    expect(two).toMatchObject({ verdict: "PASS", evidence: { pages: [2], layer: "ocr" } });
    // Page 2's first line of running text stands far below the display; pages 1 and 3 show where the
    // text block starts.
    const place = (two.evidence.places as { labelBox: { top: number } }[])[0];
    expect(place.labelBox.top).toBeGreaterThan(680);
    expect(head).toMatchObject({ verdict: "FAIL", reason: "equation-unresolved" });
    for (const s of (head.evidence.ocr as { sightings: { reasons: string[] }[] }).sightings)
      expect(s.reasons).toContain("no-math");
  }, 600_000);
});

describe("verify --ocr on a scan whose OCR layer transcribed its display", () => {
  it("reads the page whose layer ends a line with the label, and no page for a label it does not hold", async () => {
    const report = await verifyPdf(
      LAYER,
      ["1", "2"].map((label) => ({ kind: "equation" as const, label })),
      { cacheDir: cache.dir, ocr: "auto", timeoutMs: 600_000 },
    );
    const [one, two] = report.results;
    expect(one).toMatchObject({
      verdict: "PASS",
      evidence: { pages: [1], layer: "ocr", textLayer: ["ocr-layer"] },
    });
    // The page was read for (1); OCR found no (2) on it.
    expect(two).toMatchObject({ verdict: "FAIL", evidence: { ocr: { found: false, pagesRead: [1] } } });
    const alone = await verifyPdf(LAYER, [{ kind: "equation", label: "2" }], {
      cacheDir: cache.dir,
      ocr: "auto",
    });
    // Asked for (2) alone, the page is not read: its lines leave no room and none ends with (2).
    expect(alone.results[0].evidence.ocr).toBeUndefined();
  }, 600_000);
});
