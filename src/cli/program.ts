/** The CLI's command program: built afresh for each run, so a resident server can run it again. */
import { Command, CommanderError } from "commander";
import { CiteproofError } from "../errors.js";
import { type CommandIo, type Io, processIo } from "./cli-io.js";
import { reportError, wantsJson } from "./report-error.js";

// Only the command being run is loaded: each brings its own dependencies, and start-up time counts.
const COMMANDS: Record<string, () => Promise<{ register: (program: Command, io: CommandIo) => void }>> = {
  verify: () => import("./commands/verify.js"),
  "check-text": () => import("./commands/check-text.js"),
  session: () => import("./commands/session.js"),
  "cite-check": () => import("./commands/cite-check.js"),
  anchors: () => import("./commands/anchors.js"),
  locate: () => import("./commands/locate.js"),
  crop: () => import("./commands/crop.js"),
  report: () => import("./commands/report.js"),
  run: () => import("./commands/run.js"),
  source: () => import("./commands/source.js"),
  mcp: () => import("./commands/mcp.js"),
  serve: () => import("./commands/serve.js"),
  batch: () => import("./commands/batch.js"),
  "batch-merge": () => import("./commands/batch-merge.js"),
};

/** Loads the modules of the commands named, so that their first run does not (a resident server's start). */
export async function preloadCommands(names: readonly string[]): Promise<void> {
  await Promise.all(names.map((name) => COMMANDS[name]?.()));
}

/** The command an argument vector (without node and the script) names, if any. */
export function commandOf(args: readonly string[]): string | undefined {
  return args.find((arg) => !arg.startsWith("-"));
}

/**
 * Runs the CLI on `argv` (as process.argv: node, script, arguments) against `io` and returns its exit
 * code. Nothing process-wide is touched: runs with their own Io can go side by side.
 */
export async function runProgram(argv: readonly string[], given: Io = processIo()): Promise<number> {
  const io: CommandIo = { ...given, argv, exitCode: undefined };
  const program = new Command();
  program
    .name("citeproof")
    .description("Checks, mechanically, whether what a writer cites is really in the source PDF.")
    .version("0.1.0")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: () => {} });
  const args = argv.slice(2);
  const named = commandOf(args);
  const versionOnly = args.length === 1 && (args[0] === "--version" || args[0] === "-V");
  const loaders =
    named !== undefined && COMMANDS[named] ? [COMMANDS[named]] : versionOnly ? [] : Object.values(COMMANDS);
  for (const load of loaders) (await load()).register(program, io);
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" ||
        error.code === "commander.version" ||
        error.code === "commander.help"
      ) {
        io.exitCode = 0;
      } else {
        const message = error.message.replace(/^error: /, "");
        io.exitCode = reportError(new CiteproofError("USAGE", message), wantsJson(argv), io);
      }
    } else {
      io.exitCode = reportError(error, wantsJson(argv), io);
    }
  }
  return io.exitCode ?? 0;
}
