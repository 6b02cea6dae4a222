/** The CLI's command program: built afresh for each run, so a resident server can run it again. */
import { Command, CommanderError, Option } from "commander";
import { CiteproofError } from "../errors.js";
import { didYouMean } from "../util/field-names.js";
import { type CommandIo, type Io, processIo } from "./cli-io.js";
import { EXIT_ERROR, reportError, wantsJson } from "./report-error.js";
import { SERVE_MODES, SERVED_COMMANDS } from "./serve-mode.cjs";

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
  cache: () => import("./commands/cache.js"),
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
  // What commander writes to stderr: the help it shows when a command is missing (printed below);
  // its error messages are reported as USAGE errors instead.
  let errText = "";
  program
    .name("citeproof")
    .description("Checks, mechanically, whether what a writer cites is really in the source PDF.")
    .version("0.1.0")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => {
        errText += text;
      },
    });
  const args = argv.slice(2);
  const named = commandOf(args);
  const versionOnly = args.length === 1 && (args[0] === "--version" || args[0] === "-V");
  const loaders =
    named !== undefined && COMMANDS[named] ? [COMMANDS[named]] : versionOnly ? [] : Object.values(COMMANDS);
  for (const load of loaders) (await load()).register(program, io);
  for (const command of program.commands)
    if (SERVED_COMMANDS.includes(command.name())) withServeOption(command);
  // No command at all: the help, on stderr, and exit 2 (commander would print nothing and exit 0).
  if (args.length === 0) {
    io.stderr.write(program.helpInformation());
    return EXIT_ERROR;
  }
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version") {
        io.exitCode = 0;
      } else if (error.code === "commander.help") {
        // A command of subcommands named without one (`citeproof session`): its help, and exit 2.
        io.stderr.write(errText);
        io.exitCode = errText === "" ? 0 : EXIT_ERROR;
      } else {
        const message =
          unknownOption(program, args) ??
          error.message
            .replace(/^error: /, "")
            .replace(/\n\(Did you mean (.*)\?\)$/s, " (did you mean $1?)")
            .replace(/\n/g, " ");
        io.exitCode = reportError(new CiteproofError("USAGE", message), wantsJson(argv), io);
      }
    } else {
      io.exitCode = reportError(error, wantsJson(argv), io);
    }
  }
  return io.exitCode ?? 0;
}

/**
 * `--serve auto|never` is read before the program runs (serve-mode.cts), so commander never sees it;
 * it is declared on the commands a server runs only so that their help lists it.
 */
function withServeOption(command: Command): void {
  command.addOption(
    new Option(
      "--serve <mode>",
      "run through a resident `citeproof serve` of this user when one is listening (auto), or never; default $CITEPROOF_SERVE, else auto",
    ).choices(SERVE_MODES),
  );
}

/**
 * The first option the command being run does not know, named with the one it is likely to mean:
 * commander reports a missing required option before an unknown one, so `--evidance` would read as
 * a missing `--evidence`.
 */
function unknownOption(program: Command, args: readonly string[]): string | undefined {
  let command = program;
  const known = new Set(["--help", "-h"]);
  const learn = (c: Command) => {
    for (const o of c.options) for (const flag of [o.long, o.short]) if (flag) known.add(flag);
  };
  learn(program);
  for (const arg of args) {
    if (arg === "--") break;
    if (!arg.startsWith("-")) {
      const sub = command.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
      if (sub) {
        command = sub;
        learn(sub);
      }
      continue;
    }
    if (!arg.startsWith("--")) continue;
    const flag = arg.split("=")[0];
    if (known.has(flag)) continue;
    const near = didYouMean(
      flag,
      [...known].filter((k) => k.startsWith("--")),
    );
    return `unknown option '${flag}'${near.replace(/"/g, "")}`;
  }
  return undefined;
}
