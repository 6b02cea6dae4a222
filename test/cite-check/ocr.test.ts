// Offline OCR: an image-only page read by tesseract.js from the bundled model, word boxes mapped
// back to default user space through the render transform (rotation and CropBox included).
import { describe, expect, it } from "vitest";
import type { Citation, CiteCheckInput } from "../../src/checks/cite-check/request.js";
import { citeCheck } from "../../src/checks/cite-check/run.js";
import { openDocument } from "../../src/document/open.js";
import { ocrPage } from "../../src/ocr/page-ocr.js";
import { OcrSession, ocrProvenance } from "../../src/ocr/tesseract.js";
import { readPdfFile } from "../../src/source/file.js";
import { fixture, repoRoot } from "../helpers/fixture-files.js";
import { renderingSuiteCache } from "../helpers/render-suite.js";

/** The engine OCR runs with here: the system's tesseract when installed, else tesseract.js. */
const { provider: ENGINE, provider_version: ENGINE_VERSION } = ocrProvenance();

const PDF = fixture("cite-check");
const SIX = "Scanned pages still carry readable words";
const UPPER = { left: 60, bottom: 585, right: 540, top: 630 };
const LOWER = { left: 60, bottom: 285, right: 540, top: 330 };

const cache = renderingSuiteCache();

function input(citations: Citation[], extra: Partial<CiteCheckInput> = {}): CiteCheckInput {
  return {
    source: { path: PDF },
    citations,
    normalization: "none",
    timeoutMs: 120_000,
    maxOutputChars: 200_000,
    ...extra,
  };
}

describe("OCR of an image-only page", () => {
  it("finds a six-word quote with ocr_word geometry inside the right box, and not in the wrong one", async () => {
    const report = await citeCheck(
      input(
        [
          { id: "right", quote: SIX, page: 4, bounding_box: UPPER },
          { id: "wrong", quote: SIX, page: 4, bounding_box: LOWER },
        ],
        { ocr: "auto" },
      ),
      { allowRoots: [repoRoot], cacheDir: cache.dir },
    );
    expect(report.ocr_pages).toEqual([4]);
    const [right, wrong] = report.results;
    expect(right).toMatchObject({ verdict: "verified_exact", reason: "exact_in_box" });
    expect(right.evidence_layer).toMatchObject({
      kind: "ocr",
      provider: ENGINE,
      provider_version: ENGINE_VERSION,
      model_package: "@tesseract.js-data/eng@1.0.0",
      render: { dpi: 300 },
    });
    const layer = right.evidence_layer as { render_evidence_id: string; model_sha256: string };
    expect(layer.render_evidence_id).toMatch(/^render:sha256:[0-9a-f]{64}$/);
    expect(layer.model_sha256).toMatch(/^[0-9a-f]{64}$/);
    const loc = right.locations[0];
    expect(loc.geometry_level).toBe("ocr_word");
    expect(loc.text).toBe(SIX);
    expect(loc.boxes).toHaveLength(6);
    for (const b of loc.boxes) {
      expect(b.left).toBeGreaterThanOrEqual(UPPER.left);
      expect(b.right).toBeLessThanOrEqual(UPPER.right);
      expect(b.bottom).toBeGreaterThanOrEqual(UPPER.bottom);
      expect(b.top).toBeLessThanOrEqual(UPPER.top);
    }
    // The line was typeset at x = 72 with its baseline near y = 600 (bp, bottom-left origin).
    expect(Math.abs(loc.boxes[0].left - 72)).toBeLessThan(3);
    expect(loc.boxes[0].bottom).toBeGreaterThan(590);
    expect(wrong).toMatchObject({ verdict: "unmatched", reason: "outside_box" });
    expect(wrong.message).toContain("OCR text of page 4");

    // The second run reads the OCR from the cache and decides the same.
    const again = await citeCheck(input([{ quote: SIX, page: 4, bounding_box: UPPER }], { ocr: "auto" }), {
      allowRoots: [repoRoot],
      cacheDir: cache.dir,
    });
    expect(again.results[0].locations).toEqual(right.locations);
  });

  it("leaves pages with native text alone under auto, and reads them under tesseract when exact fails", async () => {
    const citation = {
      quote: "The Quick brown fox",
      page: 1,
      bounding_box: { left: 66, bottom: 690, right: 400, top: 716 },
    };
    const auto = await citeCheck(input([citation], { ocr: "auto" }), {
      allowRoots: [repoRoot],
      cacheDir: cache.dir,
    });
    expect(auto.ocr_pages).toEqual([]);
    expect(auto.results[0]).toMatchObject({ verdict: "unmatched", reason: "not_on_page" });
    const both = await citeCheck(input([citation], { ocr: "tesseract" }), {
      allowRoots: [repoRoot],
      cacheDir: cache.dir,
    });
    expect(both.ocr_pages).toEqual([1]);
    // Neither reading supports the case-changed quote; native text wins the tie.
    expect(both.results[0]).toMatchObject({ verdict: "unmatched", evidence_layer: { kind: "native_text" } });
    const exact = await citeCheck(
      input([{ ...citation, quote: "The quick brown fox" }], { ocr: "tesseract" }),
      { allowRoots: [repoRoot], cacheDir: cache.dir },
    );
    expect(exact.ocr_pages).toEqual([]);
  });
});

describe("OCR word boxes in default user space", () => {
  async function nativeWordBox(page: number, word: string) {
    const doc = await openDocument(PDF, { noCache: true, pages: [page], withGeometry: true });
    const text = doc.pages[page - 1]!.text;
    const at = text.indexOf(word);
    const g = doc.geometry.get(page)!.glyphBoxes;
    let left = Infinity;
    let bottom = Infinity;
    let right = -Infinity;
    let top = -Infinity;
    for (let i = at; i < at + word.length; i++) {
      left = Math.min(left, g[i * 4]);
      bottom = Math.min(bottom, g[i * 4 + 1]);
      right = Math.max(right, g[i * 4 + 2]);
      top = Math.max(top, g[i * 4 + 3]);
    }
    return { left, bottom, right, top };
  }

  for (const [page, word, what] of [
    [7, "Sideways", "a page turned by /Rotate 90 (drawn sideways, shown upright)"],
    [3, "Cropped", "a page whose CropBox origin is (100, 100)"],
  ] as const) {
    it(`maps OCR boxes back onto the glyphs on ${what}`, async () => {
      const source = await readPdfFile(PDF);
      const session = new OcrSession();
      try {
        const ocr = await ocrPage(source, page, session, { timeoutMs: 60_000 });
        const found = ocr.words.find((w) => w.text === word);
        expect(found, ocr.words.map((w) => w.text).join(" ")).toBeDefined();
        const native = await nativeWordBox(page, word);
        for (const side of ["left", "bottom", "right", "top"] as const)
          expect(Math.abs(found!.box[side] - native[side]), side).toBeLessThan(2);
      } finally {
        await session.close();
      }
    });
  }
});
