// Verdicts from page evidence: missing, cut or failed evidence is insufficient, never a non-match;
// OCR readings compete with native ones, the strongest standing.
import { describe, expect, it } from "vitest";
import { decide, nativeOutcome, PageLayers, wantsOcr } from "../../src/checks/cite-check/decide.js";
import type { OcrOutcome } from "../../src/checks/cite-check/ocr-evidence.js";
import type { PageEvidence } from "../../src/checks/cite-check/page-evidence.js";
import type { Citation } from "../../src/checks/cite-check/request.js";
import { CITE_REASON_VERDICT, CITE_REASONS } from "../../src/checks/cite-check/verdicts.js";
import type { PageGeometry, PageText } from "../../src/document/model.js";
import type { OcrPage } from "../../src/ocr/page-ocr.js";

const BOX = { left: 0, bottom: 0, right: 1000, top: 100 };

function nativePage(text: string): Extract<PageEvidence, { state: "ok" }> {
  const zero = { left: 0, bottom: 0, right: 0, top: 0 };
  const pageText: PageText = {
    page: 1,
    mediaBox: zero,
    cropBox: zero,
    rotation: 0,
    width: 0,
    height: 0,
    text,
    lines: [],
    lineEndHyphensUtf16: [],
    graphics: [],
    graphicsDropped: 0,
    fonts: [],
    hasTextLayer: /\S/.test(text),
  };
  const glyphBoxes = new Float32Array(text.length * 4);
  for (let i = 0; i < text.length; i++) glyphBoxes.set([10 * i, 10, 10 * i + 9, 20], i * 4);
  const geometry = { page: 1, glyphBoxes } as unknown as PageGeometry;
  return { page: 1, state: "ok", text: pageText, geometry };
}

function ocrOf(words: string[]): OcrOutcome {
  const ocr: OcrPage = {
    page: 1,
    words: words.map((text, i) => ({
      text,
      box: { left: 100 * i, bottom: 10, right: 100 * i + 90, top: 20 },
      confidence: 90,
      line: 0,
    })),
    render: { dpi: 300, width_px: 1, height_px: 1, png_sha256: "0".repeat(64) },
    provenance: {
      provider: "tesseract.js",
      provider_version: "7.0.0",
      language: "eng",
      model_package: "@tesseract.js-data/eng@1.0.0",
      model_file: "x",
      model_sha256: "0".repeat(64),
    },
  };
  return { state: "ok", ocr };
}

const cite = (quote: string): Citation => ({ quote, page: 1, bounding_box: BOX });

describe("decide", () => {
  it("gives every reason exactly one verdict", () => {
    for (const reason of CITE_REASONS) expect(CITE_REASON_VERDICT[reason]).toBeDefined();
  });

  it("is insufficient when the page was cut by the deadline or failed to extract", () => {
    const layers = new PageLayers();
    const cut = decide(cite("x"), { page: 1, state: "cut" }, undefined, undefined, "none", layers);
    expect(cut.reason).toBe("deadline_exceeded");
    const failed = decide(
      cite("x"),
      { page: 1, state: "failed", error: "boom" },
      undefined,
      undefined,
      "none",
      layers,
    );
    expect(failed).toMatchObject({ reason: "extraction_failed", detail: "boom" });
  });

  it("is insufficient without a text layer unless OCR read the page", () => {
    const layers = new PageLayers();
    const empty = nativePage("   ");
    expect(nativeOutcome(cite("x"), empty, "none", layers)).toBeUndefined();
    expect(decide(cite("x"), empty, undefined, undefined, "none", layers).reason).toBe("no_text_layer");
    expect(wantsOcr("auto", empty, [])).toBe(true);
    expect(wantsOcr(undefined, empty, [])).toBe(false);
    const read = decide(cite("two words"), empty, undefined, ocrOf(["two", "words"]), "none", layers);
    expect(read.reason).toBe("exact_in_box");
    expect(read.layer?.kind).toBe("ocr");
    const missed = decide(cite("three"), empty, undefined, ocrOf(["two", "words"]), "none", new PageLayers());
    expect(missed.reason).toBe("not_on_page");
    const unavailable = decide(
      cite("x"),
      empty,
      undefined,
      { state: "unavailable", message: "no model" },
      "none",
      layers,
    );
    expect(unavailable).toMatchObject({ reason: "ocr_unavailable", detail: "no model" });
  });

  it("lets requested OCR that could not run make a native non-match insufficient", () => {
    const page = nativePage("alpha beta");
    const layers = new PageLayers();
    const native = nativeOutcome(cite("gamma"), page, "none", layers);
    expect(native?.reason).toBe("not_on_page");
    expect(wantsOcr("tesseract", page, [native])).toBe(true);
    expect(wantsOcr("auto", page, [native])).toBe(false);
    const d = decide(cite("gamma"), page, native, { state: "unavailable", message: "x" }, "none", layers);
    expect(d.reason).toBe("ocr_unavailable");
  });

  it("takes an exact OCR reading over a normalised native one, and native text on ties", () => {
    const page = nativePage("alpha\nbeta");
    const layers = new PageLayers();
    const native = nativeOutcome(cite("alpha beta"), page, "whitespace_v1", layers);
    expect(native?.reason).toBe("normalized_in_box");
    const d = decide(cite("alpha beta"), page, native, ocrOf(["alpha", "beta"]), "whitespace_v1", layers);
    expect(d).toMatchObject({ reason: "exact_in_box", layer: { kind: "ocr" } });
    const tie = decide(
      cite("gamma"),
      page,
      nativeOutcome(cite("gamma"), page, "none", layers),
      ocrOf(["x"]),
      "none",
      new PageLayers(),
    );
    expect(tie).toMatchObject({ reason: "not_on_page", layer: { kind: "native_text" } });
  });

  it("does not OCR a page whose citations all verified exactly", () => {
    const page = nativePage("alpha beta");
    const layers = new PageLayers();
    const native = nativeOutcome(cite("alpha"), page, "none", layers);
    expect(wantsOcr("tesseract", page, [native])).toBe(false);
    expect(wantsOcr("tesseract", { page: 2, state: "out_of_range" }, [])).toBe(false);
  });
});
