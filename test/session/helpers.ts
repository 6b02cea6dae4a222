// Review-session tests: a throwaway session folder and extraction cache, and the CLI run on them.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/fixture-files.js";
import { type CliRun, runCli } from "../helpers/run-cli.js";

export interface SessionBench {
  root: string;
  /** The session folder passed as --session. */
  dir: string;
  cache: string;
  /** Runs `citeproof session <sub> <name> ...args --session <dir>`. */
  session: (sub: string, args?: string[], options?: { input?: string }) => CliRun;
  /** Writes a file under the bench's root and returns its path. */
  file: (name: string, content: string | unknown) => string;
  remove: () => void;
}

export function sessionBench(name = "demo"): SessionBench {
  const tmp = tempDir("citeproof-session-");
  const dir = join(tmp.dir, "sessions", name);
  const cache = join(tmp.dir, "cache");
  return {
    root: tmp.dir,
    dir,
    cache,
    session: (sub, args = [], options = {}) =>
      runCli(["session", sub, name, ...args, "--session", dir], {
        env: { CITEPROOF_CACHE_DIR: cache },
        input: options.input,
      }),
    file: (fileName, content) => {
      const path = join(tmp.dir, fileName);
      writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
      return path;
    },
    remove: tmp.remove,
  };
}
