// The CLI's program runs in-process against an Io of its own: it prints exactly what the CLI prints,
// returns the CLI's exit code, and leaves process.stdout, process.exitCode and the working directory
// alone, so runs side by side do not mix their output.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { collectingIo } from "../../src/cli/cli-io.js";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";
import { cliPath } from "../helpers/run-cli.js";

// The built program (and its engine): its sources import the CommonJS modules of the CLI's entry,
// which the test runner does not transform.
const built = (path: string) => import(pathToFileURL(join(repoRoot, "dist", path)).href);
const { runProgram } = (await built("cli/program.js")) as typeof import("../../src/cli/program.js");
const { closeEngine } = (await built(
  "document/engine-client.js",
)) as typeof import("../../src/document/engine-client.js");

const scratch = tempDir();
afterAll(async () => {
  await closeEngine();
  scratch.remove();
});

const evidence = join(scratch.dir, "evidence.json");
writeFileSync(
  evidence,
  JSON.stringify([
    { id: "a", kind: "quotation", page: 5, text: "reduced the mean squared error by roughly a third" },
    { id: "c", kind: "page", page: 9 },
  ]),
);
const cache = join(scratch.dir, "cache");

function spawned(args: string[]) {
  const run = spawnSync(process.execPath, [cliPath, ...args, "--serve", "never"], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { ...process.env, CITEPROOF_SERVE: "" },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function inProcess(args: string[]) {
  const run = collectingIo(repoRoot);
  const status = await runProgram(["node", "citeproof", ...args], run.io);
  return { status, stdout: run.stdout(), stderr: run.stderr() };
}

describe("the CLI in-process", () => {
  const cases = [
    ["verify --json", ["verify", fixture("paper"), "--evidence", evidence, "--json", "--cache-dir", cache]],
    ["verify", ["verify", fixture("paper"), "--evidence", evidence, "--cache-dir", cache]],
    ["a usage error with --json", ["verify", fixture("paper"), "--json"]],
    ["a missing file", ["locate", join(scratch.dir, "none.pdf"), "--text", "x"]],
    ["--version", ["--version"]],
  ] as const;

  it("prints what the CLI prints and returns its exit code, runs side by side kept apart", async () => {
    const want = cases.map(([, args]) => spawned([...args]));
    const stdoutWrite = process.stdout.write;
    const cwd = process.cwd();
    const got = await Promise.all(cases.map(([, args]) => inProcess([...args])));
    expect(got).toEqual(want);
    expect(want.map((r) => r.status)).toEqual([1, 1, 2, 2, 0]);
    expect(process.stdout.write).toBe(stdoutWrite);
    expect(process.exitCode).toBeUndefined();
    expect(process.cwd()).toBe(cwd);
  });
});
