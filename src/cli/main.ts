#!/usr/bin/env node
import { CiteproofError } from "../errors.js";
import { reportError, wantsJson } from "./io.js";
import { guardStdout } from "./output-errors.js";
import { runThroughServe, SERVE_MODES, type ServeMode, servable } from "./serve-client.js";

/** Takes `--serve auto|never` (default $CITEPROOF_SERVE, else auto) out of the arguments. */
function serveMode(args: string[]): ServeMode | { error: string } {
  let mode = process.env.CITEPROOF_SERVE || "auto";
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--serve") {
      mode = args[i + 1] ?? "";
      args.splice(i, 2);
      i--;
    } else if (args[i].startsWith("--serve=")) {
      mode = args[i].slice("--serve=".length);
      args.splice(i, 1);
      i--;
    }
  }
  return (SERVE_MODES as readonly string[]).includes(mode)
    ? (mode as ServeMode)
    : { error: `--serve must be one of ${SERVE_MODES.join(", ")} (got ${JSON.stringify(mode)})` };
}

guardStdout();
const args = process.argv.slice(2);
const mode = serveMode(args);
const served =
  typeof mode === "string" && mode === "auto" && servable(args) ? await runThroughServe(args) : undefined;
if (typeof mode !== "string") {
  process.exitCode = reportError(new CiteproofError("USAGE", mode.error), wantsJson(args));
} else if (served) {
  process.stderr.write(served.stderr);
  process.stdout.write(served.stdout);
  process.exitCode = served.exitCode;
} else {
  const { runProgram } = await import("./program.js");
  await runProgram([process.argv[0], process.argv[1], ...args]);
}
