// Code a host imports never changes V8's flags (they are the whole process's): only the CLI, which
// owns its process, sets them (src/cli/v8-tuning.ts). Shown twice: no module under src/ but that one
// names setFlagsFromString; and a host that imports the library and runs a verify (equation records
// decide anchors, the short-run path) and the anchors operation sees no call to it, where the CLI's
// run of the same check makes some (so the spy sees them when they happen).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { modulesUnder } from "../../scripts/check-layers.mjs";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";
import { cliPath } from "../helpers/run-cli.js";

const TUNER = "cli/v8-tuning.ts";
const scratch = tempDir();
afterAll(() => scratch.remove());

/**
 * Counts calls of v8.setFlagsFromString, for CommonJS and ES module callers alike, and prints them at
 * exit: one line per thread (a worker thread takes the preload too).
 */
const spy = join(scratch.dir, "flag-spy.cjs");
writeFileSync(
  spy,
  `const v8 = require("node:v8");
const { syncBuiltinESMExports } = require("node:module");
const calls = [];
const real = v8.setFlagsFromString;
v8.setFlagsFromString = (flag) => { calls.push(flag); return real(flag); };
syncBuiltinESMExports();
process.on("exit", () => process.stderr.write("\\nFLAGS " + JSON.stringify(calls) + "\\n"));
`,
);

/** The flags every thread set, in the order the threads ended. */
function flagsSet(stderr: string): string[] {
  const lines = stderr.split("\n").filter((l) => l.startsWith("FLAGS "));
  if (lines.length === 0) throw new Error(`no spy report in: ${stderr}`);
  return lines.flatMap((line) => JSON.parse(line.slice("FLAGS ".length)));
}

const records = [
  { kind: "quotation", page: 1, text: "no such words are on this page" },
  { kind: "equation", label: "1" },
];
const evidence = join(scratch.dir, "evidence.json");
writeFileSync(evidence, JSON.stringify(records));

describe("V8's flags", () => {
  it("are set by no module under src/ but the CLI's tuning", () => {
    const callers = modulesUnder(join(repoRoot, "src"))
      .filter((m) => /setFlagsFromString|v8\s*\.\s*setFlags/.test(m.source))
      .map((m) => m.path);
    expect(callers).toEqual([TUNER]);
  });

  it("stay as they are in a host that imports the library and checks, decides anchors and reads a PDF", () => {
    const index = pathToFileURL(join(repoRoot, "dist", "index.js")).href;
    const host = `
const lib = await import(${JSON.stringify(index)});
const pdf = ${JSON.stringify(fixture("paper"))};
const records = ${JSON.stringify(records)};
const report = await lib.verifyPdf(pdf, records, { noCache: true });
if (report.results.length !== 2) throw new Error("no report");
const ctx = { cwd: process.cwd(), access: "anywhere", open: { noCache: true }, caller: "agent" };
await lib.anchorsOperation.run({ pdf }, ctx);
await lib.closeExtractionWorker();
`;
    const run = spawnSync(process.execPath, ["--require", spy, "--input-type=module", "-e", host], {
      cwd: repoRoot,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(flagsSet(run.stderr)).toEqual([]);
  });

  it("are set by the CLI on its own process (the spy sees calls when they happen)", () => {
    const run = spawnSync(
      process.execPath,
      [
        "--require",
        spy,
        cliPath,
        "verify",
        fixture("paper"),
        "--evidence",
        evidence,
        "--no-cache",
        "--serve",
        "never",
      ],
      { cwd: repoRoot, encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(1);
    // The fixed flag first, then the short run's pause of the optimizing compiler and its end.
    const set = flagsSet(run.stderr);
    expect(set[0]).toBe("--no-concurrent-recompilation");
    expect(set.slice(1)).toEqual(["--no-turbofan", "--turbofan"]);
  });
});
