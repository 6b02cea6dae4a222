/**
 * What a CLI command runs against: where it prints, its working directory and its environment. The
 * CLI's entry gives the process's own; `citeproof serve` gives each call its own (its output captured,
 * the caller's working directory), so calls run side by side without swapping `process.stdout`.
 * Commands return their exit code (runProgram) instead of setting `process.exitCode`.
 */

/** Somewhere a command prints: a stream, or a collector of what a served call prints. */
export interface Output {
  write(chunk: string): unknown;
}

export interface Io {
  readonly stdout: Output;
  readonly stderr: Output;
  /** The working directory relative paths start from; the process's own when the command runs. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/** The Io of one run of the program: its arguments (as process.argv) and the exit code it ends with. */
export interface CommandIo extends Io {
  readonly argv: readonly string[];
  exitCode: number | undefined;
}

/** The process's own streams, working directory and environment. */
export function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env };
}

/** An Io that collects what is printed, for a served call or a test. */
export function collectingIo(cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    stdout: { write: (chunk: string) => out.push(chunk) },
    stderr: { write: (chunk: string) => err.push(chunk) },
    cwd,
    env,
  };
  return { io, stdout: () => out.join(""), stderr: () => err.join("") };
}
