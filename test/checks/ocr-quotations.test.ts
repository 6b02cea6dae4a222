// OCR in verify and check-text: a cited page whose words are an image is read by OCR on request,
// and a PASS on OCR text says so with the engine, the model and the resolution. A page whose image
// is too large to render safely is refused with a coded reason, never rendered.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkText } from "../../src/checks/check-text.js";
import { citeCheck } from "../../src/checks/cite-check/run.js";
import { checkContext } from "../../src/checks/verify.js";
import { openDocument } from "../../src/document/open.js";
import { ocrProvenance } from "../../src/ocr/tesseract.js";
import { callOperation } from "../../src/operations/agent-call.js";
import { checkTextOperation } from "../../src/operations/check-text.js";
import { verifyOperation } from "../../src/operations/verify.js";
import { verifyPdf } from "../../src/reading/cited-pages-first.js";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";
import { hugeImagePdf } from "../helpers/huge-image-pdf.js";
import { renderingSuiteCache } from "../helpers/render-suite.js";

/** The engine OCR runs with here: the system's tesseract when installed, else tesseract.js. */
const ENGINE = ocrProvenance().provider;

const SCAN = fixture("scan-layers");
const TRUE_ON_SCAN = "The learner receives examples whose labels were flipped";
const cache = renderingSuiteCache();

describe("verify --ocr", () => {
  it("passes a quotation on a scan with a stamp only when OCR read it, and says so", async () => {
    const records = [
      { kind: "quotation" as const, page: 1, text: TRUE_ON_SCAN },
      { kind: "quotation" as const, page: 1, text: "the learner never sees a single example" },
    ];
    const plain = await verifyPdf(SCAN, records, { cacheDir: cache.dir });
    expect(plain.results.map((r) => r.reason)).toEqual(["no-text-layer", "no-text-layer"]);
    const read = await verifyPdf(SCAN, records, { cacheDir: cache.dir, ocr: "auto" });
    const [pass, unseen] = read.results;
    expect(pass).toMatchObject({ verdict: "PASS", reason: "found" });
    expect(pass.evidence).toMatchObject({
      layer: "ocr",
      textLayer: "sparse-over-image",
      ocr: { provider: ENGINE, model_file: "4.0.0_best_int/eng.traineddata.gz", dpi: 300 },
    });
    expect(pass.message).toMatch(
      /^found on page 1 in its OCR text \(tesseract(?:\.js)? .*, 300 dpi\), which can misread/,
    );
    // OCR that does not find the words leaves the FLAG: a misreading is no evidence of absence.
    expect(unseen).toMatchObject({
      verdict: "FLAG",
      reason: "no-text-layer",
      evidence: { ocr: { found: false } },
    });
    expect(unseen.message).toContain("did not find the words either");
  }, 120_000);

  it("reads the page again from the cache, not by OCR", async () => {
    const again = await verifyPdf(SCAN, [{ kind: "quotation", page: 1, text: TRUE_ON_SCAN }], {
      cacheDir: cache.dir,
      ocr: "auto",
    });
    expect(again.results[0].verdict).toBe("PASS");
    expect(readdirSync(cache.dir, { recursive: true }).some((f) => String(f).includes("rec-ocr-"))).toBe(
      true,
    );
  });

  it("leaves a page with native text alone under auto", async () => {
    const report = await verifyPdf(
      SCAN,
      [{ kind: "quotation", page: 2, text: "words the page never held at all" }],
      {
        cacheDir: cache.dir,
        ocr: "auto",
      },
    );
    expect(report.results[0]).toMatchObject({ verdict: "FAIL", reason: "absent" });
    expect(report.results[0].evidence.ocr).toBeUndefined();
  });

  it("OCRs in check-text too", async () => {
    const doc = await openDocument(SCAN, { cacheDir: cache.dir });
    const report = await checkText(checkContext(doc), `On p. 1 we read "${TRUE_ON_SCAN}".`, undefined, {
      mode: "auto",
      doc,
      timeoutMs: 120_000,
    });
    expect(report.citations[0]).toMatchObject({ verdict: "PASS", evidence: { layer: "ocr" } });
  }, 120_000);

  it("is an argument of the verify and check_text tools, and a mode outside the list is refused", async () => {
    const ctx = { cwd: repoRoot, access: [repoRoot], open: { cacheDir: cache.dir } };
    const evidence = [{ kind: "quotation", page: 1, text: TRUE_ON_SCAN }];
    const verified = await callOperation(verifyOperation, { pdf: SCAN, evidence, ocr: "auto" }, ctx);
    expect(verified.json).toMatchObject({ results: [{ verdict: "PASS", evidence: { layer: "ocr" } }] });
    const draft = `On p. 1 we read "${TRUE_ON_SCAN}".`;
    const checked = await callOperation(checkTextOperation, { pdf: SCAN, draft, ocr: "auto" }, ctx);
    expect(checked.json).toMatchObject({ citations: [{ verdict: "PASS" }] });
    await expect(
      callOperation(verifyOperation, { pdf: SCAN, evidence, ocr: "always" }, ctx),
    ).rejects.toMatchObject({
      code: "USAGE",
    });
  }, 120_000);
});

describe("a page image too large to render", () => {
  let pdf: string;
  beforeAll(() => {
    pdf = join(cache.dir, "huge.pdf");
    writeFileSync(pdf, hugeImagePdf());
  });

  it("is measured at extraction and refused by verify's OCR with a coded reason", async () => {
    const doc = await openDocument(pdf, { noCache: true });
    expect(doc.pages[0]).toMatchObject({ textLayer: "sparse-over-image", largestImagePixels: 400_000_000 });
    const report = await verifyPdf(pdf, [{ kind: "quotation", page: 1, text: "any words at all here" }], {
      noCache: true,
      ocr: "auto",
    });
    expect(report.results[0]).toMatchObject({
      verdict: "FLAG",
      reason: "no-text-layer",
      evidence: { ocr: { refused: "OCR_IMAGE_TOO_LARGE" } },
    });
    expect(report.results[0].message).toContain("[OCR_IMAGE_TOO_LARGE]");
  });

  it("is refused by cite-check's OCR too: insufficient evidence, never a crash", async () => {
    const report = await citeCheck(
      {
        source: { path: pdf },
        citations: [
          { quote: "any words", page: 1, bounding_box: { left: 0, bottom: 0, right: 612, top: 792 } },
        ],
        normalization: "none",
        ocr: "auto",
        timeoutMs: 60_000,
        maxOutputChars: 200_000,
      },
      { allowRoots: [cache.dir], noCache: true },
    );
    expect(report.results[0]).toMatchObject({ verdict: "insufficient_evidence", reason: "ocr_unavailable" });
    expect(report.results[0].message).toContain("over the limit");
  });
});

describe("an OCR model that cannot load", () => {
  it("is a coded error naming the package, exit 2", () => {
    // The built CLI beside every installed package, the model's package installed without its model.
    const root = tempDir();
    try {
      cpSync(join(repoRoot, "dist"), join(root.dir, "dist"), { recursive: true });
      cpSync(join(repoRoot, "package.json"), join(root.dir, "package.json"));
      const modules = join(root.dir, "node_modules");
      mkdirSync(modules);
      for (const name of readdirSync(join(repoRoot, "node_modules"))) {
        if (name === "@tesseract.js-data") continue;
        symlinkSync(join(repoRoot, "node_modules", name), join(modules, name));
      }
      // Found first, whatever an enclosing folder's node_modules holds.
      mkdirSync(join(modules, "@tesseract.js-data", "eng"), { recursive: true });
      writeFileSync(
        join(modules, "@tesseract.js-data", "eng", "package.json"),
        JSON.stringify({ name: "@tesseract.js-data/eng", version: "0.0.0" }),
      );
      const evidence = join(root.dir, "e.json");
      writeFileSync(evidence, JSON.stringify([{ kind: "quotation", page: 1, text: TRUE_ON_SCAN }]));
      const run = spawnSync(
        process.execPath,
        [
          join(root.dir, "dist", "cli", "main.js"),
          "verify",
          SCAN,
          "--evidence",
          evidence,
          "--ocr",
          "auto",
          "--no-cache",
          "--json",
        ],
        { encoding: "utf8", timeout: 60_000 },
      );
      expect(run.status).toBe(2);
      const out = JSON.parse(run.stdout) as { error: { code: string; message: string } };
      expect(out.error.code).toBe("OCR_UNAVAILABLE");
      expect(out.error.message).toContain("@tesseract.js-data/eng");
    } finally {
      root.remove();
    }
  });
});
