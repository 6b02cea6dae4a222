// Review-session tests: a throwaway session folder and extraction cache, and the CLI run on them.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/fixture-files.js";
import { type CliRun, runCli, runCliInProcess } from "../helpers/run-cli.js";

export interface SessionBench {
  root: string;
  /** The session folder passed as --session. */
  dir: string;
  cache: string;
  /**
   * Runs `citeproof session <sub> <name> ...args --session <dir>`: in this process, or as a process of
   * its own when it reads `input` from stdin.
   */
  session: (sub: string, args?: string[], options?: { input?: string }) => Promise<CliRun>;
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
    session: async (sub, args = [], options = {}) => {
      const argv = ["session", sub, name, ...args, "--session", dir];
      const env = { CITEPROOF_CACHE_DIR: cache };
      return options.input === undefined
        ? runCliInProcess(argv, { env })
        : runCli(argv, { env, input: options.input });
    },
    file: (fileName, content) => {
      const path = join(tmp.dir, fileName);
      writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
      return path;
    },
    remove: tmp.remove,
  };
}
