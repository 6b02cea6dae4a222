// V8 and per-process flags on Node's command line or in NODE_OPTIONS reach the main thread; the
// engine workers start with only the flags they can take, so extraction and rendering still run.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeEngine, EngineClient, lastWorkerTier } from "../../src/document/engine-client.js";
import { SHORT_RUN_PAGES } from "../../src/document/extract-pages.js";
import { openDocument } from "../../src/document/open.js";
import { type EngineTier, setProcessTuning } from "../../src/document/process-tuning.js";
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

  it("a fresh worker's first call tells the process's tuning of a short run and the engine's tier, each ended once", async () => {
    const source = await readPdfFile(fixture("paper"));
    const client = new EngineClient();
    const events: string[] = [];
    let shortRuns = 0;
    setProcessTuning({
      engineCompiles: (tier: EngineTier) => {
        events.push(`compile ${tier}`);
        return () => events.push(`compiled ${tier}`);
      },
      shortRun: () => {
        shortRuns++;
        return () => {
          shortRuns--;
          events.push("short run ended");
        };
      },
      longFirstDecision: () => () => {},
    });
    const seen: number[] = [];
    const options = (shortRun: boolean) => ({
      timeoutMs: 60_000,
      timeoutError: () => new CiteproofError("EXTRACTION_TIMEOUT", "too slow"),
      fallbackCode: "EXTRACTION_FAILED" as const,
      shortRun,
      onChunk: () => seen.push(shortRuns),
    });
    try {
      client.prestart();
      await client.call("extract", source, { pages: [1, 2], withGeometry: false }, options(true));
      expect(seen.length).toBeGreaterThan(2);
      expect(seen.every((held) => held === 1)).toBe(true);
      expect(shortRuns).toBe(0);
      expect(events).toEqual(["compile baseline", "compiled baseline", "short run ended"]);
      expect(lastWorkerTier()).toBe("baseline");
      // The same worker's next call: its engine is loaded, nothing is told.
      seen.length = 0;
      events.length = 0;
      await client.call("extract", source, { pages: [3], withGeometry: false }, options(true));
      expect(seen.some((held) => held > 0)).toBe(false);
      expect(events).toEqual([]);
      await client.close();
      seen.length = 0;
      await client.call("extract", source, { pages: [1, 2], withGeometry: false }, options(false));
      expect(seen.length).toBeGreaterThan(2);
      expect(seen.some((held) => held > 0)).toBe(false);
      expect(events).toEqual(["compile optimizing", "compiled optimizing"]);
      expect(lastWorkerTier()).toBe("optimizing");
    } finally {
      setProcessTuning(undefined);
      await client.close();
    }
  });
});
