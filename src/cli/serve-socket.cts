/**
 * Where `citeproof serve` listens and what the CLI and the server say over it. The socket lives in a
 * folder of the user's own: $XDG_RUNTIME_DIR/citeproof, else citeproof-<uid> under the temporary
 * directory; the folder must be a real directory owned by this user and closed to everyone else,
 * and the socket a socket owned by this user, or neither side uses it.
 */
import { lstatSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";

export const SERVE_PROTOCOL = 1;

/**
 * The environment a served command would read (cache and allowed-root defaults): a server runs a
 * call only when the caller's values are its own.
 */
export function servedEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(env).sort())
    if (key.startsWith("CITEPROOF_") || key === "XDG_CACHE_HOME" || key === "HOME") {
      const value = env[key];
      if (value !== undefined && key !== "CITEPROOF_SERVE") out[key] = value;
    }
  return out;
}

/**
 * Names this build: a server answers only a CLI of the same files and Node. The stamp is the bundle's
 * entry (dist/bundle/cli.js, written anew by every build), whose code the server runs.
 */
export function buildId(): string {
  const program = join(__dirname, "..", "bundle", "cli.js");
  let stamp = "";
  try {
    stamp = String(statSync(program).mtimeMs);
  } catch {
    // Running from sources: the path alone names the build.
  }
  return `${process.version} ${program} ${stamp}`;
}

function uid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}

export function serveDir(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolute(runtime)) return join(runtime, "citeproof");
  return join(tmpdir(), `citeproof-${uid() ?? "user"}`);
}

export function socketPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(serveDir(env), "serve.sock");
}

/** Why a path is not this user's own, or undefined when it is (`socket`: it must be a socket). */
export function notOurs(path: string, kind: "directory" | "socket"): string | undefined {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(path);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : "unreadable";
  }
  if (kind === "directory" && !stat.isDirectory()) return `${path} is not a directory`;
  if (kind === "socket" && !stat.isSocket()) return `${path} is not a socket`;
  const me = uid();
  if (me !== undefined && stat.uid !== me) return `${path} belongs to another user (uid ${stat.uid})`;
  if (kind === "directory" && (stat.mode & 0o077) !== 0)
    return `${path} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return undefined;
}

/** A call as the CLI sends it: one JSON line. */
export interface ServeRequest {
  protocol: number;
  build: string;
  cwd: string;
  env: Record<string, string>;
  args: string[];
}

/** The answer: the call's output and exit code, or why the server did not run it. */
export type ServeReply =
  | { protocol: number; stdout: string; stderr: string; exitCode: number }
  | { protocol: number; refused: string };
