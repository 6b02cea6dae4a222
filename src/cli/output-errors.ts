/**
 * When standard output cannot be written: a reader that went away ends the output quietly
 * (`stdout-guard.cts`); any other failure (ENOSPC on a full disk, EIO) leaves the output incomplete: a
 * coded OUTPUT_UNWRITABLE on stderr and exit 2 at once, never a stack trace.
 */
import { CiteproofError } from "../errors.js";
import { EXIT_ERROR, reportError } from "./report-error.js";
import { onWriteError } from "./stdout-guard.cjs";

export function guardStdout(stream: NodeJS.WriteStream = process.stdout): void {
  onWriteError(stream, outputUnwritable);
}

export function outputUnwritable(error: NodeJS.ErrnoException): never {
  reportError(
    new CiteproofError(
      "OUTPUT_UNWRITABLE",
      `cannot write to standard output (${error.code ?? error.message}); the output is incomplete`,
    ),
    false,
  );
  process.exit(EXIT_ERROR);
}
