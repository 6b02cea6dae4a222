// The two OCR engines: the system's tesseract program (when installed) and tesseract.js both read a
// generated scan's equation labels, each named in the provenance and cached apart; and a page is read
// once, its label crops and strips read together, not one run of the engine per crop.
import { describe, expect, it } from "vitest";
import { readEquationLabels } from "../../src/checks/ocr-equations.js";
import { findSystemTesseract } from "../../src/ocr/system-tesseract.js";
import { type OcrCounter, type OcrEngineChoice, ocrEngineChoice } from "../../src/ocr/tesseract.js";
import { openForChecks } from "../../src/reading/open-for-checks.js";
import { Deadline } from "../../src/util/deadline.js";
import { fixture } from "../helpers/fixture-files.js";
import { renderingSuiteCache } from "../helpers/render-suite.js";

const SCAN = fixture("eq-scan");
const cache = renderingSuiteCache();
const system = findSystemTesseract(process.env.PATH);

async function labelsRead(engine: OcrEngineChoice, cacheDir: string) {
  const counter: OcrCounter = { runs: 0, images: 0 };
  const doc = await openForChecks(SCAN, { cacheDir }, true);
  const reading = await readEquationLabels(doc.pages, ["1", "2"], {
    doc,
    deadline: new Deadline(600_000),
    engine: { engine, counter },
  });
  return { reading, counter };
}

describe("the OCR engines", () => {
  it.skipIf(!system)(
    "the system's tesseract and tesseract.js both read the scan's labels, each named and cached apart (skipped when no tesseract program is on the PATH)",
    async () => {
      const bySystem = await labelsRead("tesseract", cache.dir);
      const byJs = await labelsRead("tesseract.js", cache.dir);
      expect(bySystem.reading?.source.provider).toBe("tesseract");
      expect(bySystem.reading?.source.provider_version).toBe(system?.version);
      expect(byJs.reading?.source.provider).toBe("tesseract.js");
      // The same model file for both.
      expect(byJs.reading?.source.model_sha256).toBe(bySystem.reading?.source.model_sha256);
      for (const { reading, counter } of [bySystem, byJs]) {
        expect(reading?.pagesRead).toEqual([1, 2]);
        expect(reading?.places.map((p) => p.label).sort()).toEqual(["1", "2"]);
        // Nothing was taken from the other engine's readings in the shared cache.
        expect(counter.images).toBeGreaterThan(0);
      }
    },
    300_000,
  );

  it("reads each page once and the label crops together, and nothing again from the cache", async () => {
    const engine = ocrEngineChoice(undefined) === "tesseract.js" || !system ? "tesseract.js" : "tesseract";
    const { tempDir } = await import("../helpers/fixture-files.js");
    const dir = tempDir();
    try {
      const first = await labelsRead(engine, dir.dir);
      const places = first.reading?.places ?? [];
      expect(places.map((p) => p.label).sort()).toEqual(["1", "2"]);
      // Two pages, and at least three crops of each label found.
      expect(first.counter.images).toBeGreaterThanOrEqual(2 + 3 * places.length);
      if (engine === "tesseract")
        // The system's program: one run for the pages (or two at once), one for the first three
        // crops of every label: never a run per crop.
        expect(first.counter.runs).toBeLessThanOrEqual(4);
      else expect(first.counter.runs).toBe(first.counter.images);
      const again = await labelsRead(engine, dir.dir);
      expect(again.counter).toEqual({ runs: 0, images: 0 });
      expect(again.reading?.places).toEqual(first.reading?.places);
    } finally {
      dir.remove();
    }
  }, 300_000);
});
