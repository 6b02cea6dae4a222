#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { CiteproofError } from "../errors.js";
import { register as registerAnchors } from "./commands/anchors.js";
import { register as registerCheckText } from "./commands/check-text.js";
import { register as registerCiteCheck } from "./commands/cite-check.js";
import { register as registerCrop } from "./commands/crop.js";
import { register as registerMcp } from "./commands/mcp.js";
import { register as registerReport } from "./commands/report.js";
import { register as registerRun } from "./commands/run.js";
import { register as registerSession } from "./commands/session.js";
import { register as registerSource } from "./commands/source.js";
import { register as registerVerify } from "./commands/verify.js";
import { EXIT_ERROR, reportError, wantsJson } from "./io.js";

const program = new Command();
program
  .name("citeproof")
  .description("Checks, mechanically, whether what a writer cites is really in the source PDF.")
  .version("0.1.0")
  .exitOverride()
  .configureOutput({ writeErr: () => {} });

registerVerify(program);
registerCheckText(program);
registerSession(program);
registerMcp(program);
registerReport(program);
registerCiteCheck(program);
registerRun(program);
registerSource(program);
registerAnchors(program);
registerCrop(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    if (
      error.code === "commander.helpDisplayed" ||
      error.code === "commander.version" ||
      error.code === "commander.help"
    ) {
      process.exitCode = 0;
    } else {
      const message = error.message.replace(/^error: /, "");
      process.exitCode = reportError(new CiteproofError("USAGE", message), wantsJson());
    }
  } else {
    process.exitCode = reportError(error, wantsJson());
  }
}
if (process.exitCode === undefined) process.exitCode = 0;
void EXIT_ERROR;
