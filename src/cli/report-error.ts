/**
 * How the CLI prints a coded error (stderr, and a JSON error document with --json) and its exit codes.
 * Only the error model is imported: the CLI entry uses this before it loads any command.
 */
import { errorDocument } from "../error-document.js";
import type { Naming } from "../errors.js";
import { flagName } from "../operations/flag-name.js";
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

export { flagName } from "../operations/flag-name.js";

/**
 * How the CLI names an input field in a message: a top-level field by its flag (`text` is `--text`,
 * `document_index` is `--document-index`, unless `flags` names it otherwise, as `pdf` is `<pdf>`), a
 * field inside one by its path and the flag that gave it (`"evidence[0].page" in --evidence`).
 */
const POSITIONAL: Readonly<Record<string, string>> = {
  pdf: "the <pdf> argument",
  source: "the <source> argument",
};

export function cliNaming(flags: Readonly<Record<string, string>> = {}): Naming {
  const flagOf = (top: string) => flags[top] ?? POSITIONAL[top] ?? flagName(top);
  return {
    option: flagName,
    field(path) {
      const top = /^[^.[]+/.exec(path)?.[0] ?? path;
      return top === path ? flagOf(top) : `"${path}" in ${flagOf(top)}`;
    },
  };
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

/**
 * Prints a coded error (stderr, and with --json the error document every interface gives, in the
 * CLI's names) and returns exit 2.
 */
export function reportError(
  error: unknown,
  json: boolean,
  io: { stdout: Output; stderr: Output } = process,
  naming: Naming = cliNaming(),
): number {
  const document = errorDocument(error, naming);
  io.stderr.write(`citeproof: error [${document.code}]: ${visible(document.message)}\n`);
  if (json) printJson({ error: document }, io.stdout);
  return EXIT_ERROR;
}
