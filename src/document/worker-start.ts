/**
 * Starting an engine worker with the command-line flags it can take. A worker inherits the
 * process's flags, but Node refuses V8 and per-process flags in a worker's argv (they already apply
 * to every thread): `node --max-old-space-size=4096 citeproof ...` would otherwise fail to start
 * any worker. Options meant for the main script (--eval, --print, --input-type) are dropped too.
 *
 * Nothing here, nor anywhere a host imports, changes V8's flags: they are the whole process's, and
 * a program that imports citeproof owns its process. The CLI, whose process citeproof owns, sets
 * its own at its entry (`src/cli/v8-tuning.ts`).
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

const MAIN_SCRIPT_OPTIONS = new Set(["--eval", "-e", "--print", "-p", "--input-type"]);

/** The flags workers were last started with, once Node has accepted them. */
let accepted: string[] | undefined;

function withoutMainScriptOptions(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].split("=")[0];
    if (!MAIN_SCRIPT_OPTIONS.has(name)) out.push(argv[i]);
    // The value given as the next argument goes with its option.
    else if (!argv[i].includes("=") && name !== "-p" && name !== "--print") i++;
  }
  return out;
}

/** The flags Node named as invalid for a worker ("... invalid execArgv flags: --a=1, --b"). */
function namedFlags(error: unknown): string[] | undefined {
  if ((error as { code?: string }).code !== "ERR_WORKER_INVALID_EXEC_ARGV") return undefined;
  const list = /flags: (.*)$/.exec((error as Error).message)?.[1];
  return list ? list.split(", ") : [];
}

export function startWorker(url: URL, options: Omit<WorkerOptions, "execArgv">): Worker {
  let flags = accepted ?? withoutMainScriptOptions(process.execArgv);
  for (let attempt = 0; ; attempt++) {
    try {
      const worker = new Worker(url, { ...options, execArgv: flags });
      accepted = flags;
      return worker;
    } catch (error) {
      const refused = namedFlags(error);
      if (refused === undefined || flags.length === 0) throw error;
      // Drop what Node named; if it named nothing we recognise, start the worker with no flags.
      const fewer = flags.filter((flag) => !refused.includes(flag));
      flags = attempt === 0 && fewer.length < flags.length ? fewer : [];
    }
  }
}
