/**
 * Which calls go to a running `citeproof serve`: `--serve auto|never` (default $CITEPROOF_SERVE, else
 * auto) and the commands a server runs. Node's own modules only: the CLI decides this before it loads
 * anything.
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";

export const SERVE_MODES = ["auto", "never"] as const;
export type ServeMode = (typeof SERVE_MODES)[number];

/** The commands a server runs: they read their inputs from files and print one report. */
export const SERVED_COMMANDS = ["verify", "check-text", "cite-check", "anchors", "locate"];

/** Takes `--serve auto|never` (default $CITEPROOF_SERVE, else auto) out of the arguments. */
export function serveMode(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): ServeMode | { error: string } {
  let mode = env.CITEPROOF_SERVE || "auto";
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

/**
 * Whether a call can go to a server: a served command that reads nothing from stdin and names no file
 * of the process's own (`/dev/stdin`, `/dev/fd/0`, `/proc/self/...`), which in the server would be the
 * server's.
 */
export function servable(args: readonly string[], cwd = process.cwd()): boolean {
  const command = args.find((arg) => !arg.startsWith("-"));
  return (
    command !== undefined && SERVED_COMMANDS.includes(command) && namesOwnStreams(args, cwd) === undefined
  );
}

/**
 * The first argument that is `-` (stdin) or a path, as given or as its symlinks resolve, under /dev or
 * /proc (other than /dev/null): what it reads depends on the process reading it.
 */
export function namesOwnStreams(args: readonly string[], cwd: string): string | undefined {
  for (const arg of args) {
    if (arg === "-") return arg;
    const value = arg.startsWith("--") && arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : arg;
    if (value.length === 0 || (value.startsWith("-") && value !== "-")) continue;
    if (value === "-") return arg;
    const lexical = resolve(cwd, value);
    let real = lexical;
    try {
      real = realpathSync(lexical);
    } catch {
      // A path that does not resolve is judged as written.
    }
    if ([lexical, real].some((path) => /^\/(dev|proc)(\/|$)/.test(path) && path !== "/dev/null")) return arg;
  }
  return undefined;
}
