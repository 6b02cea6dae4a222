/**
 * How the CLI prints a coded error (stderr, and a JSON error document with --json) and its exit codes.
 * Only the error model is imported: the CLI entry uses this before it loads any command.
 */
import { asCiteproofError, errorFacts, renderMessage } from "../errors.js";
import type { Output } from "./cli-io.js";

export const EXIT_CLEAN = 0;
export const EXIT_FAILS = 1;
export const EXIT_ERROR = 2;

export function printJson(value: unknown, stdout: Output = process.stdout): void {
  stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function wantsJson(argv: readonly string[] = process.argv): boolean {
  return argv.includes("--json");
}

/** A setting named in a message, as a flag: `timeout_ms` is `--timeout-ms`. */
export function flagName(option: string): string {
  return `--${option.replace(/_/g, "-")}`;
}

/**
 * Control characters written visibly (`\n`, `\r`, `\u001b`): a newline, CR or ESC in a file name must not
 * split the one-line message or reach the terminal as a control sequence. Tabs stay.
 */
export function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/** Prints a coded error (stderr, and a JSON error document with --json) and returns exit 2. */
export function reportError(
  error: unknown,
  json: boolean,
  io: { stdout: Output; stderr: Output } = process,
): number {
  const coded = asCiteproofError(error);
  const message = renderMessage(coded, flagName);
  io.stderr.write(`citeproof: error [${coded.code}]: ${visible(message)}\n`);
  const facts = errorFacts(coded);
  if (json)
    printJson({ error: { code: coded.code, message, ...(facts ? { details: facts } : {}) } }, io.stdout);
  return EXIT_ERROR;
}
