// Text-layer provenance: decided once per page at extraction, from the engine's render modes, the
// painting order of text and images, and how much of an image-covered page the text covers.
// fixtures/src/scan-layers.tex: page 1 a scan with an archive stamp as its only text, page 2 a
// scan over an invisible OCR layer, page 3 a scan whose only text is its page number, page 4 a
// scan painted over the page's visible text.
import { beforeAll, describe, expect, it } from "vitest";
import type { Box, GraphicObject, LineInfo } from "../../src/document/model.js";
import { type OpenedDocument, openDocument } from "../../src/document/open.js";
import {
  decideTextLayer,
  HIDDEN_SHARE,
  pageLayer,
  pagesByLayer,
  SPARSE_TEXT_SHARE,
  TEXT_LAYER_MEANINGS,
  TEXT_LAYERS,
} from "../../src/document/text-layer-kind.js";
import { anchorsOperation } from "../../src/operations/anchors.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";

let scan: OpenedDocument;
beforeAll(async () => {
  scan = await openDocument(fixture("scan-layers"), { noCache: true });
});

describe("the layer of each page of a generated scan", () => {
  it("tells a stamp, an invisible OCR layer, a page number and text under the image apart", () => {
    expect(scan.pages.map((p) => p!.textLayer)).toEqual([
      "sparse-over-image",
      "ocr-layer",
      "sparse-over-image",
      "ocr-layer",
    ]);
    expect(scan.pages[0]!.text).toContain("ARCHIVE COPY");
    expect(scan.pages[2]!.text.trim()).toBe("3");
    // The scan's image is measured in its own pixels (150 dpi, letter size).
    expect(scan.pages[0]!.largestImagePixels).toBe(1275 * 1650);
  });

  it("lists the pages of each layer, and anchors reports them", async () => {
    expect(pagesByLayer(scan.pages)).toEqual({ "sparse-over-image": [1, 3], "ocr-layer": [2, 4] });
    const cache = tempDir();
    try {
      const ctx = {
        cwd: process.cwd(),
        access: "anywhere" as const,
        open: { cacheDir: cache.dir },
        caller: "cli" as const,
      };
      const input = { pdf: fixture("scan-layers") };
      const report = await anchorsOperation.run(input, ctx);
      expect(report.document.pagesByLayer).toEqual({ "sparse-over-image": [1, 3], "ocr-layer": [2, 4] });
      expect(anchorsOperation.format(report, input)).toContain(
        "text layers: sparse-over-image 1, 3; ocr-layer 2, 4",
      );
    } finally {
      cache.remove();
    }
  });

  it("reads native text as native and a page with nothing on it as blank", async () => {
    const layout = await openDocument(fixture("layout"), { noCache: true });
    expect(layout.pages.map((p) => p!.textLayer)).toEqual([
      "native",
      "native",
      "native",
      "native",
      "blank",
      "native",
    ]);
  });

  it("reads a record made before layers were decided as native or none", () => {
    const page = { ...scan.pages[0]!, textLayer: undefined };
    expect(pageLayer(page)).toBe("native");
    expect(pageLayer({ ...page, hasTextLayer: false })).toBe("none");
  });

  it("gives every layer its meaning", () => {
    for (const layer of TEXT_LAYERS) expect(TEXT_LAYER_MEANINGS[layer].length).toBeGreaterThan(20);
  });
});

describe("the thresholds", () => {
  const page: Box = { left: 0, bottom: 0, right: 600, top: 800 };
  const scanImage: GraphicObject = { kind: "image", box: page };
  const line = (width: number, height: number): LineInfo => ({
    startUtf16: 0,
    endUtf16: 10,
    box: { left: 50, bottom: 700, right: 50 + width, top: 700 + height },
    fontSize: height,
  });
  const signals = (lines: LineInfo[], graphics: GraphicObject[], hiddenChars = 0) =>
    decideTextLayer({ chars: 100, hiddenChars, lines, graphics, cropBox: page });

  it("hides a page's text behind a share of invisible characters", () => {
    expect(signals([line(500, 10)], [], 100 * HIDDEN_SHARE)).toBe("ocr-layer");
    expect(signals([line(500, 10)], [], 100 * HIDDEN_SHARE - 1)).toBe("native");
    expect(
      decideTextLayer({ chars: 0, hiddenChars: 0, lines: [], graphics: [scanImage], cropBox: page }),
    ).toBe("none");
  });

  it("calls text over a page-covering image sparse below the share of the image's area", () => {
    const area = 600 * 800 * SPARSE_TEXT_SHARE;
    expect(signals([line(area / 20 - 1, 20)], [scanImage])).toBe("sparse-over-image");
    expect(signals([line(area / 20 + 1, 20)], [scanImage])).toBe("native");
    // Little text beside small images is a native page (a figure page with its captions).
    const halfImage: GraphicObject = { kind: "image", box: { left: 0, bottom: 0, right: 600, top: 390 } };
    expect(signals([line(10, 10)], [halfImage])).toBe("native");
    // Paths are not images: a page of vector drawings with a label stays native.
    expect(signals([line(10, 10)], [{ kind: "path", box: page }])).toBe("native");
  });
});
