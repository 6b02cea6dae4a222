/**
 * Starting an engine worker with the command-line flags it can take. A worker inherits the
 * process's flags, but Node refuses V8 and per-process flags in a worker's argv (they already apply
 * to every thread): `node --max-old-space-size=4096 citeproof ...` would otherwise fail to start
 * any worker. Options meant for the main script (--eval, --print, --input-type) are dropped too.
 */
import { setFlagsFromString } from "node:v8";
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

/**
 * Optimizing compiles run on the thread that needs them, not in the background, for the isolates
 * created from now on (the workers). Node 20 aborts the whole process ("NodePlatform::ForIsolate:
 * Assertion failed") when a worker ends while an optimizing compile for it is still running on a
 * background thread, and an engine worker is terminated at every deadline; a background compile
 * is also what an ending worker can hang on for good (nodejs/node#54918). Measured on a 1,000-page
 * extraction: no more CPU, no slower.
 */
let compilesInForeground = false;
function compileInForeground(): void {
  if (compilesInForeground) return;
  setFlagsFromString("--no-concurrent-recompilation");
  compilesInForeground = true;
}

/**
 * How a worker compiles the engine: `baseline` keeps it on V8's baseline wasm compiler (Liftoff),
 * `optimizing` lets its hot functions tier up to TurboFan. Tiering up costs compile time that only a
 * long extraction earns back. Measured on 2 cores (cold verify, alternating runs): baseline only
 * takes 10-22% less CPU up to ~200 pages, about the same at ~400 and 13% more at 1,000.
 */
export type EngineTier = "baseline" | "optimizing";

/**
 * V8's flag is process-wide and taken when a module is compiled: it is set for a baseline worker
 * until that worker has loaded its engine (its first message, or its end), so that whatever else
 * compiles WebAssembly later (OCR) keeps the optimizing tier.
 */
let baselineLoading = 0;
let lastTier: EngineTier | undefined;

/** The tier the last worker started was asked to compile the engine with. */
export function lastWorkerTier(): EngineTier | undefined {
  return lastTier;
}

/** One more (+1) or one fewer (-1) baseline worker loading its engine. */
function baselineLoads(delta: 1 | -1): void {
  const before = baselineLoading;
  baselineLoading += delta;
  if (before === 0 && baselineLoading > 0) setFlagsFromString("--liftoff-only");
  if (before > 0 && baselineLoading === 0) setFlagsFromString("--no-liftoff-only");
}

export function startWorker(
  url: URL,
  options: Omit<WorkerOptions, "execArgv">,
  tier: EngineTier = "optimizing",
): Worker {
  compileInForeground();
  lastTier = tier;
  if (tier === "optimizing") return newWorker(url, options);
  // Set before the thread starts: it compiles the engine as soon as it runs.
  baselineLoads(1);
  let worker: Worker;
  try {
    worker = newWorker(url, options);
  } catch (error) {
    baselineLoads(-1);
    throw error;
  }
  let loading = true;
  const loaded = () => {
    if (!loading) return;
    loading = false;
    baselineLoads(-1);
  };
  worker.once("message", loaded);
  worker.once("error", loaded);
  worker.once("exit", loaded);
  return worker;
}

function newWorker(url: URL, options: Omit<WorkerOptions, "execArgv">): Worker {
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
