/**
 * When standard output cannot be written. A reader that went away (EPIPE: `citeproof verify ... | head`)
 * is not a failure of the command: the rest of the output is dropped quietly and the command ends with
 * its own exit code. Any other failure (ENOSPC on a full disk, EIO) leaves the output incomplete: a coded
 * OUTPUT_UNWRITABLE on stderr and exit 2 at once, never a stack trace.
 */
import { CiteproofError } from "../errors.js";
import { EXIT_ERROR, reportError } from "./report-error.js";

export function guardStdout(stream: NodeJS.WriteStream = process.stdout): void {
  let readerGone = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (readerGone) return;
    if (error.code === "EPIPE") {
      readerGone = true;
      return;
    }
    reportError(
      new CiteproofError(
        "OUTPUT_UNWRITABLE",
        `cannot write to standard output (${error.code ?? error.message}); the output is incomplete`,
      ),
      false,
    );
    process.exit(EXIT_ERROR);
  });
}
