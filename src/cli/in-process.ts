/**
 * A CLI call run in this process (no running `citeproof serve` took it): the CLI's V8 flags are set
 * before the work starts, the library is told the CLI's tuning, and the program runs the command.
 * The entry (main.cts) imports this module from the build's one-file bundle of it (dist/bundle/).
 */

import { setProcessTuning } from "../document/process-tuning.js";
import { CiteproofError } from "../errors.js";
import { guardStdout } from "./output-errors.js";
import { reportError, wantsJson } from "./report-error.js";
import { cliTuning, tuneCliProcess } from "./v8-tuning.js";

/** Runs the call; `mode` is the serve mode's parse (an error when `--serve` was given a bad value). */
export async function runInProcess(
  argv: readonly string[],
  args: string[],
  mode: string | { error: string },
): Promise<number> {
  tuneCliProcess();
  setProcessTuning(cliTuning());
  guardStdout();
  if (typeof mode !== "string") return reportError(new CiteproofError("USAGE", mode.error), wantsJson(args));
  const { runProgram } = await import("./program.js");
  return runProgram([argv[0], argv[1], ...args]);
}
