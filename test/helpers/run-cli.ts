// Runs the built CLI (dist/cli/main.cjs, the package's bin) as a user would, capturing exit code and output.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
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
