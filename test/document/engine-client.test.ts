// One engine worker for extraction and rendering: both go through it, a deadline on one call is
// that call's error while the others are redone, and a lost worker is EXTRACTION_FAILED.
import { afterAll, describe, expect, it, vi } from "vitest";
import { closeEngine, engine } from "../../src/document/engine-client.js";
import { extractInWorker } from "../../src/document/extract-pages.js";
import { openDocument } from "../../src/document/open.js";
import { NO_TUNING, type ProcessTuning, setProcessTuning } from "../../src/document/process-tuning.js";
import { holdRenderer, renderRegion } from "../../src/document/render.js";
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

  it("a render's deadline is that render's error; the extraction it stops and the one behind it are redone", async () => {
    const bytes = syntheticPdf(40);
    const big = { bytes, sha256: sha256Hex(bytes), origin: "big.pdf" };
    const paper = await readPdfFile(fixture("paper"));
    // A worker is up and idle: the deadline below replaces it once.
    await openDocument(paper, { noCache: true, pages: [1] });
    const before = engine().workersStarted;
    // The deadlines run on a clock the test moves: the render's passes at a chosen point, never
    // because a machine happened to be slow or fast.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const seen: number[] = [];
      const slow = extractInWorker({ source: big, withGeometry: false }, 60_000, (got) => {
        seen.push("failed" in got ? -got.failed : got.text.page);
        // The first page is in: the main side has seen nothing yet of the render queued behind
        // this extraction, so its deadline passes while it is still to be served.
        if (seen.length === 1) vi.advanceTimersByTime(1500);
      });
      const render = renderRegion(paper, 1, "page", 36, { timeoutMs: 1500 });
      const after = openDocument(paper, { noCache: true, pages: [2] });
      await expect(render).rejects.toMatchObject({ code: "RENDER_TIMEOUT" });
      expect(await slow).toEqual({ pageCount: 40, workers: 1 });
      // Every page once: the fresh worker extracted only the pages the first one had not delivered.
      expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect((await after).pages[1]?.hasTextLayer).toBe(true);
      expect(engine().workersStarted - before).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a worker closed under a call fails it with EXTRACTION_FAILED, and the next call is served", async () => {
    const paper = await readPdfFile(fixture("paper"));
    const render = renderRegion(paper, 1, "page", 300).catch((error: unknown) => error);
    await closeEngine();
    expect(await render).toMatchObject({ code: "EXTRACTION_FAILED" });
    expect((await renderRegion(paper, 1, "page", 36)).widthPx).toBeGreaterThan(0);
  });
});

describe("holding the engine worker", () => {
  it("keeps a worker whose memory grew between renders until the hold ends", async () => {
    const paper = await readPdfFile(fixture("paper"));
    // A page at 400 dpi grows the engine's memory past what an idle worker keeps.
    const large = () => renderRegion(paper, 1, "page", 400, { pngCompression: 1, fewestChannels: true });
    await closeEngine();
    const start = engine().workersStarted;
    await large();
    await large();
    // Not held: the worker is let go after each large render and the next starts another.
    expect(engine().workersStarted - start).toBe(2);
    const release = holdRenderer();
    const held = engine().workersStarted;
    await large();
    await large();
    await renderRegion(paper, 1, "page", 36);
    expect(engine().workersStarted - held).toBe(1);
    release();
    release();
    await large();
    await large();
    expect(engine().workersStarted - held).toBe(3);
  }, 60_000);

  it("lets go first a worker the process's tuning compiled for a short run alone", async () => {
    const paper = await readPdfFile(fixture("paper"));
    const counted = (tuning: ProcessTuning | undefined) => async () => {
      setProcessTuning(tuning);
      try {
        await closeEngine();
        // A few pages: a short run, whose worker the tuning compiles on the baseline tier.
        await openDocument(paper, { noCache: true, pages: [1] });
        const before = engine().workersStarted;
        const release = holdRenderer();
        await renderRegion(paper, 1, "page", 36);
        release();
        return engine().workersStarted - before;
      } finally {
        setProcessTuning(undefined);
      }
    };
    // A tuning of its own (that changes nothing here): the short run's worker is replaced once.
    expect(await counted({ ...NO_TUNING })()).toBe(1);
    // No tuning: the tier is V8's own, and the worker is kept.
    expect(await counted(undefined)()).toBe(0);
  }, 60_000);
});
