// An OCR reading is checked by the rules of a text layer (issue 37 item 4): a word cut at a line's
// end (`as-` / `sume`) is read joined and kept. Once OCR has read the page, the message no longer
// suggests OCR; before, it points to `verify --ocr`. The OCR reading is put in the document's cache,
// where a reading of the same page by the same engine and model is taken from, so no engine runs.
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ocrRecordKey } from "../../src/checks/cite-check/ocr-evidence.js";
import { applyOcr, lineEndHyphens } from "../../src/checks/ocr-quotations.js";
import { checkContext, verifyEvidence } from "../../src/checks/verify.js";
import type { OcrPage } from "../../src/ocr/page-ocr.js";
import { ocrProvenance } from "../../src/ocr/tesseract.js";
import { openForChecks } from "../../src/reading/open-for-checks.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir();
afterAll(() => tmp.remove());

function reading(page: number, lines: string[][]): OcrPage {
  const words = lines.flatMap((line, l) =>
    line.map((text, w) => ({
      text,
      box: { left: 72 + w * 40, bottom: 700 - l * 14, right: 108 + w * 40, top: 710 - l * 14 },
      confidence: 95,
      line: l,
    })),
  );
  return {
    page,
    words,
    render: { dpi: 300, width_px: 2550, height_px: 3300, png_sha256: "0".repeat(64) },
    provenance: ocrProvenance(),
  };
}

describe("a quotation on a scanned page, read by OCR", () => {
  it("is found across a line-end hyphen, and the messages say what to do", async () => {
    const cacheDir = join(tmp.dir, "cache");
    const doc = await openForChecks(fixture("eq-scan"), { cacheDir }, false);
    doc.cache!.writeRecord(
      ocrRecordKey(1),
      reading(1, [
        ["Here", "we", "shall", "as-"],
        ["sume", "that", "the", "weights", "are", "known."],
      ]),
    );
    const records = [
      { kind: "quotation" as const, page: 1, text: "we shall assume that the weights are known" },
      { kind: "quotation" as const, page: 1, text: "we shall presume that the weights are known" },
    ];
    const before = (await verifyEvidence(doc, records)).results;
    for (const r of before) {
      expect([r.verdict, r.reason]).toEqual(["FLAG", "no-text-layer"]);
      expect(r.message).toContain("OCR it (ocr auto) or read it yourself");
    }
    const after = await applyOcr(checkContext(doc), records, before, {
      mode: "auto",
      doc,
      timeoutMs: 60_000,
    });
    expect([after[0].verdict, after[0].reason]).toEqual(["PASS", "found"]);
    expect(after[0].evidence.layer).toBe("ocr");
    expect([after[1].verdict, after[1].reason]).toEqual(["FLAG", "no-text-layer"]);
    expect(after[1].message).not.toContain("OCR it");
    expect(after[1].message).toMatch(
      /the wording was not checked: read it yourself; OCR of the page \(tesseract(?:\.js)? .*\) did not find the words either$/,
    );
  });

  it("marks only the hyphens right before a line break", () => {
    expect(lineEndHyphens("as-\nsume well-known x-\ny")).toEqual([2, 21]);
  });
});
