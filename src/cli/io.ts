/** Shared CLI plumbing: document options, JSON output, coded errors and exit codes. */

import type { Command } from "commander";
import { MAX_JOBS, parseJobs } from "../document/jobs.js";
import type { OpenOptions } from "../document/open.js";
import type { Naming } from "../errors.js";
import { CiteproofError } from "../errors.js";
import type { Operation, OperationContext } from "../operations/operation.js";
import { runOperation } from "../operations/run-operation.js";
import { readRegularFileSync } from "../source/file.js";
import type { CommandIo, Io } from "./cli-io.js";
import { type MaybeTerminal, type ProgressLine, progressLineFor } from "./progress-line.js";
import { cliNaming, flagName, printJson, reportError, wantsJson } from "./report-error.js";

export {
  cliNaming,
  EXIT_CLEAN,
  EXIT_ERROR,
  EXIT_FAILS,
  flagName,
  printJson,
  reportError,
  visible,
  wantsJson,
} from "./report-error.js";

export interface DocumentFlags {
  cacheDir?: string;
  cache?: boolean;
  timeoutMs?: string;
  password?: string;
  maxBytes?: string;
  jobs?: string;
  json?: boolean;
  /** No progress line on a terminal. */
  quiet?: boolean;
}

/** Adds the flags every command that opens a PDF takes. */
/** Where the extraction cache is, as defaultCacheDir (document/cache.ts) decides it. */
export const CACHE_DIR_HELP =
  "extraction cache directory (default: $CITEPROOF_CACHE_DIR, else $XDG_CACHE_HOME/citeproof, else ~/.cache/citeproof)";

export function addDocumentOptions(command: Command): Command {
  return command
    .option("--cache-dir <dir>", CACHE_DIR_HELP)
    .option("--no-cache", "neither read nor write the extraction cache")
    .option("--timeout-ms <ms>", "deadline for extraction in milliseconds", "60000")
    .option("--password <password>", "password of an encrypted PDF")
    .option("--max-bytes <bytes>", "largest PDF accepted, in bytes", String(256 * 1024 * 1024))
    .option(
      "--jobs <n>",
      `engine workers a long document's extraction is split over, 1 to ${MAX_JOBS} (default: $CITEPROOF_JOBS, else the idle cores, at most 4)`,
    )
    .option("--quiet", "no progress line on a terminal (pages read, time) while a long command runs");
}

/** The document flags of a command that runs many calls (batch, mcp): every one but the password. */
export function addSharedDocumentOptions(command: Command, timeoutPer: string): Command {
  return command
    .option("--cache-dir <dir>", CACHE_DIR_HELP)
    .option("--no-cache", "neither read nor write the extraction cache")
    .option("--timeout-ms <ms>", `deadline for extraction in milliseconds, per ${timeoutPer}`, "60000")
    .option("--max-bytes <bytes>", "largest PDF accepted, in bytes", String(256 * 1024 * 1024));
}

/** The document options those flags give, shared by every call. */
export function sharedOpenOptions(flags: DocumentFlags): OperationContext["open"] {
  const { password: _password, ...open } = documentOptions({ ...flags, password: undefined });
  return open;
}

export function documentOptions(flags: DocumentFlags): OpenOptions {
  return {
    cacheDir: flags.cacheDir,
    noCache: flags.cache === false,
    timeoutMs: timeoutMs(flags.timeoutMs),
    password: flags.password,
    maxBytes: positiveInt(flags.maxBytes, "--max-bytes"),
    jobs: flags.jobs === undefined ? undefined : parseJobs(flags.jobs),
  };
}

/** The progress line of a command running against an Io, ended when the command ends (runAction). */
const progressLines = new WeakMap<Io, ProgressLine>();

/**
 * The context of a command whose paths a person typed: read wherever they are. On a terminal, the
 * pages it reads are shown on a progress line after a second (not with --quiet).
 */
export function commandContext(io: Io, flags: DocumentFlags): OperationContext {
  const open = sharedOpenOptions(flags);
  const command = (io as Partial<CommandIo>).argv?.[2] ?? "";
  const line = progressLineFor(io.stderr as MaybeTerminal, command, flags.quiet === true);
  const base = { cwd: io.cwd, access: "anywhere", settingName: flagName } as const;
  if (!line) return { ...base, open };
  progressLines.get(io)?.end();
  progressLines.set(io, line);
  return { ...base, open: { ...open, onProgress: (p) => line.pages(p) } };
}

/** Clears the progress line before the result or the error is printed. */
function endProgress(io: Io): void {
  progressLines.get(io)?.end();
  progressLines.delete(io);
}

/**
 * Runs an operation through the one door every interface uses (its schema reads `rawArgs`, the flags
 * mapped to the operation's fields) and prints its result: the JSON document with --json, else the
 * text for a person.
 */
export async function runAndPrint<Input, Result>(
  io: Io,
  op: Operation<Input, Result>,
  rawArgs: Record<string, unknown>,
  ctx: OperationContext,
  json: boolean | undefined,
): Promise<number> {
  let outcome: Awaited<ReturnType<typeof runOperation<Input, Result>>>;
  try {
    outcome = await runOperation(op, rawArgs, ctx);
  } finally {
    endProgress(io);
  }
  if (json) printJson(outcome.json, io.stdout);
  else io.stdout.write(outcome.text());
  return outcome.exitCode;
}

/**
 * The longest deadline a timer holds: Node's timers are 32-bit, and a longer one fires at once (with
 * a warning on stderr), which would cut every extraction at its start.
 */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** --timeout-ms: a positive number of milliseconds a timer can hold (about 24.8 days at most). */
export function timeoutMs(value: string | undefined): number | undefined {
  const ms = positiveInt(value, "--timeout-ms");
  if (ms !== undefined && ms > MAX_TIMEOUT_MS)
    throw new CiteproofError(
      "USAGE",
      `--timeout-ms must be at most ${MAX_TIMEOUT_MS} (about 24.8 days; got ${JSON.stringify(value)})`,
    );
  return ms;
}

export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new CiteproofError("USAGE", `${flag} must be a positive integer (got ${JSON.stringify(value)})`);
  }
  return Number(value);
}

export function nonNegativeInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new CiteproofError("USAGE", `${flag} must be a whole number (got ${JSON.stringify(value)})`);
  }
  return Number(value);
}

/** Reads a text input file (or stdin for "-"), with a coded error naming it. */
export function readTextInput(path: string, what: string): string {
  return readRegularFileSync(path, what).toString("utf8");
}

/**
 * Runs a command body and sets the run's exit code from its result or error; `naming` says which
 * flag or argument gave each field an error names (by default `--<field>`, `<pdf>`).
 */
export async function runAction(
  io: CommandIo,
  json: boolean | undefined,
  body: () => Promise<number> | number,
  naming: Naming = cliNaming(),
): Promise<void> {
  try {
    io.exitCode = await body();
  } catch (error) {
    endProgress(io);
    io.exitCode = reportError(error, json === true || wantsJson(io.argv), io, naming);
  } finally {
    endProgress(io);
  }
}
