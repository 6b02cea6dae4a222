#!/usr/bin/env node
/**
 * The CLI's entry. A call that a running `citeproof serve` can take loads nothing but the socket
 * client, and as CommonJS, which Node loads without starting its ES module loader: Node's own start
 * is most of such a call. The program and the command's modules (ES modules) are loaded only when the
 * command runs in this process.
 */
import { printServed, runThroughServe } from "./serve-client.cjs";
import { servable, serveMode } from "./serve-mode.cjs";

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const mode = serveMode(args);
  const served = mode === "auto" && servable(args) ? await runThroughServe(args) : undefined;
  if (served) {
    printServed(served);
    return;
  }
  // The call runs in this process, which the CLI owns: its V8 flags are set before the work starts,
  // and the library tells the CLI's tuning when a flag pays.
  const [{ guardStdout }, { cliTuning, tuneCliProcess }, { setProcessTuning }] = await Promise.all([
    import("./output-errors.js"),
    import("./v8-tuning.js"),
    import("../document/process-tuning.js"),
  ]);
  tuneCliProcess();
  setProcessTuning(cliTuning());
  guardStdout();
  if (typeof mode !== "string") {
    const [{ CiteproofError }, { reportError, wantsJson }] = await Promise.all([
      import("../errors.js"),
      import("./report-error.js"),
    ]);
    process.exitCode = reportError(new CiteproofError("USAGE", mode.error), wantsJson(args));
  } else {
    const { runProgram } = await import("./program.js");
    process.exitCode = await runProgram([process.argv[0], process.argv[1], ...args]);
  }
}

void main();
