// A long document's extraction split over several engine workers: the same pages as one worker gives,
// handed on in page order, under one deadline; a short one stays on one worker.
import { afterAll, describe, expect, it, vi } from "vitest";
import { closeEngine, engineWorkersStarted } from "../../src/document/engine-client.js";
import { type ExtractedOrFailed, extractInWorker } from "../../src/document/extract-pages.js";
import { PARALLEL_MIN_PAGES } from "../../src/document/jobs.js";
import { sha256Hex } from "../../src/source/file.js";
import { fixture } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";
import { syntheticPdf } from "../helpers/synthetic-pdf.js";

afterAll(() => closeEngine());

const PAGES = PARALLEL_MIN_PAGES + 40;
const bytes = syntheticPdf(PAGES, 6);
const long = { bytes, sha256: sha256Hex(bytes), origin: "long.pdf" };
const numberOf = (got: ExtractedOrFailed) => ("failed" in got ? -got.failed : got.text.page);
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

async function extract(jobs: number, pages?: number[]) {
  const got: ExtractedOrFailed[] = [];
  const result = await extractInWorker(
    { source: long, withGeometry: true, pages },
    60_000,
    (page) => got.push(page),
    jobs,
  );
  return { result, got };
}

describe("parallel extraction", () => {
  it("two workers give the pages one worker gives, character boxes included, in page order", async () => {
    const one = await extract(1);
    const two = await extract(2);
    expect(one.result).toEqual({ pageCount: PAGES, workers: 1 });
    expect(two.result).toEqual({ pageCount: PAGES, workers: 2 });
    expect(two.got.map(numberOf)).toEqual(upTo(PAGES));
    expect(two.got).toEqual(one.got);
  });

  it("the process's engine, which opened the document to count its pages, takes the first share", async () => {
    await closeEngine();
    const before = engineWorkersStarted();
    const two = await extract(2);
    expect(two.result.workers).toBe(2);
    // The process's engine and one more: not a third worker while the first idles.
    expect(engineWorkersStarted() - before).toBe(2);
  });

  it("pages asked for past the end are not waited for", async () => {
    const { result, got } = await extract(3, upTo(PAGES + 20));
    expect(result).toEqual({ pageCount: PAGES, workers: 3 });
    expect(got.map(numberOf)).toEqual(upTo(PAGES));
  });

  it("fewer pages than the threshold stay on one worker", async () => {
    const { result, got } = await extract(4, upTo(PARALLEL_MIN_PAGES - 1));
    expect(result.workers).toBe(1);
    expect(got.map(numberOf)).toEqual(upTo(PARALLEL_MIN_PAGES - 1));
  });

  it("one deadline over every worker: it stops them all with one EXTRACTION_TIMEOUT", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      let seen = 0;
      const run = extractInWorker(
        { source: long, withGeometry: false },
        60_000,
        () => {
          // The deadline passes once the split is under way.
          if (++seen === 1) vi.advanceTimersByTime(60_000);
        },
        2,
      );
      await expect(run).rejects.toMatchObject({
        code: "EXTRACTION_TIMEOUT",
        details: { option: "timeout_ms", limit: 60_000 },
      });
      expect(seen).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the jobs setting on the command line", () => {
  it("--jobs 0, --jobs 1000 and CITEPROOF_JOBS=many are USAGE errors, never a hang", () => {
    const paper = fixture("paper");
    for (const [args, env, says] of [
      [["--jobs", "0"], {}, /jobs must be a whole number from 1 to 16 \(got "0"\) \(--jobs\)/],
      [["--jobs", "1000"], {}, /jobs must be a whole number from 1 to 16 \(got "1000"\)/],
      [[], { CITEPROOF_JOBS: "many" }, /CITEPROOF_JOBS must be a whole number from 1 to 16/],
    ] as const) {
      const run = runCli(["anchors", paper, "--no-cache", ...args], { env });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/\[USAGE\]/);
      expect(run.stderr).toMatch(says);
    }
    expect(runCli(["anchors", paper, "--no-cache", "--jobs", "2"]).status).toBe(0);
  });
});
