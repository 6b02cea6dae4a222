// Runs the built CLI (dist/cli/main.cjs, the package's bin) as a user would, capturing exit code and output.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "./fixture-files.js";

export const cliPath = join(repoRoot, "dist", "cli", "main.cjs");

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {},
): CliRun {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run \`npx tsc -p .\` first`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...options.env })) if (v !== undefined) env[k] = v;
  const out = spawnSync(process.execPath, [cliPath, ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    env,
    input: options.input,
    timeout: options.timeoutMs ?? 60_000,
  });
  let json: unknown;
  try {
    json = JSON.parse(out.stdout);
  } catch {
    json = undefined;
  }
  return { status: out.status, stdout: out.stdout, stderr: out.stderr, json };
}

/**
 * Runs the built CLI's program in this process against an Io of its own (what `citeproof serve` does
 * for a call): the same output and exit code as `runCli` without a process's start. For calls that
 * read nothing from stdin. The library reads its settings from `process.env`: `env` is set there for
 * the call and put back after it (a test file's calls run one at a time).
 */
export async function runCliInProcess(
  args: string[],
  options: { env?: Record<string, string | undefined> } = {},
): Promise<CliRun> {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run \`npx tsc -p .\` first`);
  const built = (path: string) => import(pathToFileURL(join(repoRoot, "dist", path)).href);
  const [{ runProgram }, { collectingIo }] = (await Promise.all([
    built("cli/program.js"),
    built("cli/cli-io.js"),
  ])) as [typeof import("../../src/cli/program.js"), typeof import("../../src/cli/cli-io.js")];
  const run = collectingIo(repoRoot);
  const saved = Object.entries(options.env ?? {}).map(([name, value]) => {
    const before = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
    return { name, before };
  });
  let status: number;
  try {
    status = await runProgram([process.execPath, cliPath, ...args], run.io);
  } finally {
    for (const { name, before } of saved) {
      if (before === undefined) delete process.env[name];
      else process.env[name] = before;
    }
  }
  const stdout = run.stdout();
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = undefined;
  }
  return { status, stdout, stderr: run.stderr(), json };
}
