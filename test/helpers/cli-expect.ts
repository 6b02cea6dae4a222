// Assertions shared by the CLI tests: a coded tool error as the CLI conventions require it.
import { expect } from "vitest";
import type { CliRun } from "./run-cli.js";

/** No stack trace: no "    at fn (file:line)" frame and no Node error banner. */
export function expectNoStackTrace(text: string): void {
  expect(text).not.toMatch(/^\s+at .+[:(]/m);
  expect(text).not.toMatch(/node:internal|Error: .*\n\s+at /);
}

/**
 * Exit 2, one line on stderr naming the code, and with --json exactly one JSON error document on
 * stdout carrying the same code and message (and details, when the error has any). Returns the message.
 */
export function expectToolError(run: CliRun, code: string, json: boolean): string {
  expect(run.status, `stderr: ${run.stderr}`).toBe(2);
  expectNoStackTrace(run.stderr);
  expectNoStackTrace(run.stdout);
  const lines = run.stderr.split("\n").filter((l) => l.length > 0);
  expect(lines).toHaveLength(1);
  const m = /^citeproof: error \[([A-Z_]+)\]: (.+)$/.exec(lines[0]);
  expect(m, lines[0]).not.toBeNull();
  expect(m![1]).toBe(code);
  const message = m![2];
  if (json) {
    const { details, ...rest } = (run.json as { error: { details?: unknown } }).error;
    expect({ error: rest }).toEqual({ error: { code, message } });
    if (details !== undefined) expect(typeof details).toBe("object");
  } else {
    expect(run.stdout).toBe("");
  }
  return message;
}
