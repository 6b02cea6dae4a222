/**
 * Which calls go to a running `citeproof serve`: `--serve auto|never` (default $CITEPROOF_SERVE, else
 * auto) and the commands a server runs. No imports: the CLI decides this before it loads anything.
 */

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

/** Whether a call can go to a server: a served command that reads nothing from stdin. */
export function servable(args: readonly string[]): boolean {
  const command = args.find((arg) => !arg.startsWith("-"));
  return command !== undefined && SERVED_COMMANDS.includes(command) && !args.includes("-");
}
