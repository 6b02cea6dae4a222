#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { CiteproofError } from "../errors.js";
import { reportError, wantsJson } from "./io.js";

const program = new Command();
program
  .name("citeproof")
  .description("Checks, mechanically, whether what a writer cites is really in the source PDF.")
  .version("0.1.0")
  .exitOverride()
  .configureOutput({ writeErr: () => {} });

// Only the command being run is loaded: each brings its own dependencies, and start-up time counts.
const COMMANDS: Record<string, () => Promise<{ register: (program: Command) => void }>> = {
  verify: () => import("./commands/verify.js"),
  "check-text": () => import("./commands/check-text.js"),
  session: () => import("./commands/session.js"),
  "cite-check": () => import("./commands/cite-check.js"),
  anchors: () => import("./commands/anchors.js"),
  crop: () => import("./commands/crop.js"),
  report: () => import("./commands/report.js"),
  run: () => import("./commands/run.js"),
  source: () => import("./commands/source.js"),
  mcp: () => import("./commands/mcp.js"),
};
const named = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
const loaders = named !== undefined && COMMANDS[named] ? [COMMANDS[named]] : Object.values(COMMANDS);
for (const load of loaders) (await load()).register(program);

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
