// V8 and per-process flags on Node's command line or in NODE_OPTIONS reach the main thread; the
// engine workers start with only the flags they can take, so extraction and rendering still run.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeEngine, EngineClient } from "../../src/document/engine-client.js";
import { SHORT_RUN_PAGES } from "../../src/document/extract-pages.js";
import { openDocument } from "../../src/document/open.js";
import {
  LATE_INTERRUPT_BUDGET,
  lastWorkerTier,
  optimizerPaused,
  tiersUpLate,
  tierUpLater,
  V8_INTERRUPT_BUDGET,
} from "../../src/document/worker-flags.js";
import { CiteproofError } from "../../src/errors.js";
import { readPdfFile } from "../../src/source/file.js";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";
import { cliPath } from "../helpers/run-cli.js";

const scratch = tempDir();
afterAll(() => scratch.remove());

function cli(nodeFlags: string[], args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [...nodeFlags, cliPath, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
}

describe("node flags", () => {
  const evidence = join(scratch.dir, "evidence.json");
  writeFileSync(
    evidence,
    JSON.stringify([{ kind: "quotation", page: 1, text: "no such words are on this page" }]),
  );
  const verify = ["verify", fixture("paper"), "--evidence", evidence, "--json", "--no-cache"];

  it.each([
    ["V8 flags on the command line", ["--max-old-space-size=4096", "--stack-size=2000"], {}],
    ["a per-process flag with a Node flag the worker takes", ["--title=citeproof-test", "--no-warnings"], {}],
    ["V8 flags in NODE_OPTIONS", [], { NODE_OPTIONS: "--max-old-space-size=4096 --max-semi-space-size=16" }],
  ])("%s: verify runs", (_label, flags, env) => {
    const run = cli(flags, verify, env);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).results[0]).toMatchObject({ verdict: "FAIL", reason: "absent" });
  });

  it("V8 flags on the command line: crop renders", () => {
    const out = join(scratch.dir, "page.png");
    const run = cli(["--max-old-space-size=4096"], ["crop", fixture("paper"), "--page", "1", "--out", out]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});

describe("the engine's compile tier", () => {
  it("a worker started for a few pages keeps the baseline tier, one for more the optimizing; same text", async () => {
    try {
      const few = await openDocument(fixture("paper"), { pages: [1, 2], noCache: true });
      expect(lastWorkerTier()).toBe("baseline");
      await closeEngine();
      const many = Array.from({ length: SHORT_RUN_PAGES + 1 }, (_, i) => i + 1);
      const more = await openDocument(fixture("paper"), { pages: many, noCache: true });
      expect(lastWorkerTier()).toBe("optimizing");
      await closeEngine();
      const whole = await openDocument(fixture("paper"), { noCache: true });
      expect(lastWorkerTier()).toBe("optimizing");
      expect(whole.pageCount).toBeGreaterThan(2);
      expect(few.pages.slice(0, 2)).toEqual(whole.pages.slice(0, 2));
      expect(more.pages).toEqual(whole.pages);
    } finally {
      await closeEngine();
    }
  });

  it("a short run pauses the optimizing compiler until it ends (a fresh worker's first call); a long one does not", async () => {
    const source = await readPdfFile(fixture("paper"));
    const client = new EngineClient();
    const seen: boolean[] = [];
    const options = (shortRun: boolean) => ({
      timeoutMs: 60_000,
      timeoutError: () => new CiteproofError("EXTRACTION_TIMEOUT", "too slow"),
      fallbackCode: "EXTRACTION_FAILED" as const,
      shortRun,
      onChunk: () => seen.push(optimizerPaused()),
    });
    try {
      expect(optimizerPaused()).toBe(false);
      client.prestart();
      await client.call("extract", source, { pages: [1, 2], withGeometry: false }, options(true));
      expect(seen.length).toBeGreaterThan(2);
      expect(seen.every((paused) => paused)).toBe(true);
      expect(optimizerPaused()).toBe(false);
      expect(lastWorkerTier()).toBe("baseline");
      // The same worker's next call: its engine is loaded, nothing is paused.
      seen.length = 0;
      await client.call("extract", source, { pages: [3], withGeometry: false }, options(true));
      expect(seen.some((paused) => paused)).toBe(false);
      await client.close();
      seen.length = 0;
      await client.call("extract", source, { pages: [1, 2], withGeometry: false }, options(false));
      expect(seen.length).toBeGreaterThan(2);
      expect(seen.some((paused) => paused)).toBe(false);
      expect(lastWorkerTier()).toBe("optimizing");
    } finally {
      await client.close();
    }
  });
});

describe("late tier-up", () => {
  it("returns to the interrupt budget the running Node's V8 has by default", () => {
    const options = spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8" }).stdout;
    const shown = /--interrupt-budget=(\d+)/.exec(options.slice(options.indexOf("--interrupt-budget ")));
    expect(Number(shown?.[1])).toBe(V8_INTERRUPT_BUDGET);
    expect(LATE_INTERRUPT_BUDGET).toBeGreaterThan(V8_INTERRUPT_BUDGET);
  });

  it("holds while any run that asked for it is running; lifting twice lifts once", () => {
    expect(tiersUpLate()).toBe(false);
    const outer = tierUpLater();
    const inner = tierUpLater();
    expect(tiersUpLate()).toBe(true);
    inner();
    inner();
    expect(tiersUpLate()).toBe(true);
    outer();
    expect(tiersUpLate()).toBe(false);
  });
});
