// One engine worker for extraction and rendering: both go through it, a deadline on one call is
// that call's error while the others are redone, and a lost worker is EXTRACTION_FAILED.
import { afterAll, describe, expect, it } from "vitest";
import { closeEngine, engine } from "../../src/document/engine-client.js";
import { openDocument } from "../../src/document/open.js";
import { renderRegion } from "../../src/document/render.js";
import { readPdfFile, sha256Hex } from "../../src/source/file.js";
import { fixture } from "../helpers/fixture-files.js";
import { syntheticPdf } from "../helpers/synthetic-pdf.js";

afterAll(() => closeEngine());

describe("the engine client", () => {
  it("extracts and renders with one worker, one engine, one copy of the document", async () => {
    await closeEngine();
    const before = engine().workersStarted;
    const paper = await readPdfFile(fixture("paper"));
    for (let round = 0; round < 3; round++) {
      const doc = await openDocument(paper, { noCache: true, pages: [1] });
      expect(doc.pages[0]?.hasTextLayer).toBe(true);
      const image = await renderRegion(paper, 1, "page", 36);
      expect(image.widthPx).toBeGreaterThan(0);
    }
    expect(engine().workersStarted - before).toBe(1);
  });

  it("a render's deadline is that render's error; an extraction waiting behind it is redone", async () => {
    const bytes = syntheticPdf(800);
    const big = { bytes, sha256: sha256Hex(bytes), origin: "big.pdf" };
    const paper = await readPdfFile(fixture("paper"));
    const slow = openDocument(big, { noCache: true });
    const render = renderRegion(paper, 1, "page", 36, { timeoutMs: 1500 });
    const after = openDocument(paper, { noCache: true, pages: [2] });
    await expect(render).rejects.toMatchObject({ code: "RENDER_TIMEOUT" });
    expect((await slow).pages.every((p) => p?.text.includes("line"))).toBe(true);
    expect((await after).pages[1]?.hasTextLayer).toBe(true);
  });

  it("a worker closed under a call fails it with EXTRACTION_FAILED, and the next call is served", async () => {
    const paper = await readPdfFile(fixture("paper"));
    const render = renderRegion(paper, 1, "page", 300).catch((error: unknown) => error);
    await closeEngine();
    expect(await render).toMatchObject({ code: "EXTRACTION_FAILED" });
    expect((await renderRegion(paper, 1, "page", 36)).widthPx).toBeGreaterThan(0);
  });
});
