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
 * V8's flag is process-wide and taken when a module is compiled. A worker compiles its engine when its
 * first call comes, so the flag is set from that call until the worker's first message (or its end):
 * whatever else compiles WebAssembly later (OCR) keeps the optimizing tier.
 */
let baselineLoading = 0;
let lastTier: EngineTier | undefined;

/** The tier the last worker given its first call was asked to compile the engine with. */
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

/**
 * A short run's JavaScript (the engine worker's page loop, the main thread's handling of the pages) is
 * not compiled by V8's optimizing compiler: in a fresh process that compile, which runs on the thread
 * that asked for it (above), costs more than the few pages earn back. Measured on the 16-page cold
 * verify: 5-8% less CPU, same output. The flag is process-wide; it is lifted when the last short run
 * ends, so a long read after it optimizes as usual. A process started with an optimizer flag of its
 * own (`--no-opt`, `--jitless`, ...) is left as it is.
 */
const OWN_OPTIMIZER_FLAG =
  /--(no-)?(opt|turbofan|jitless|max-opt|always-turbofan|always-opt|interrupt-budget|interrupt_budget)\b/;

function ownOptimizerFlag(): boolean {
  return [...process.execArgv, process.env.NODE_OPTIONS ?? ""].some((flag) => OWN_OPTIMIZER_FLAG.test(flag));
}

/**
 * A process-wide V8 flag held while any run that asked for it runs: set by the first hold, undone by
 * the last one's lift (each lift counts once). A process started with an optimizer flag of its own
 * is left as it is.
 */
function heldFlag(set: string, unset: string): { hold: () => () => void; held: () => boolean } {
  let holds = 0;
  const hold = () => {
    if (ownOptimizerFlag()) return () => {};
    if (holds++ === 0) setFlagsFromString(set);
    let lifted = false;
    return () => {
      if (lifted) return;
      lifted = true;
      if (--holds === 0) setFlagsFromString(unset);
    };
  };
  return { hold, held: () => holds > 0 };
}

const optimizingPause = heldFlag("--no-turbofan", "--turbofan");

/** Whether a short run holds the optimizing compiler paused now. */
export const optimizerPaused = optimizingPause.held;

/** Pauses the optimizing compiler for a short run; the function returned (call it once) lifts the pause. */
export const pauseOptimizing = optimizingPause.hold;

/**
 * V8's interrupt budget: how much bytecode a function runs between the ticks that decide whether
 * to hand it to the optimizing compiler. 66 KB is V8's own default (`node --v8-options` prints it;
 * a test checks it against the running Node), to which the budget returns after a late run.
 */
export const V8_INTERRUPT_BUDGET = 66 * 1024;
/**
 * The budget while a long first decision runs (see tierUpLater): nine times V8's. Measured on the
 * 1,000-page bench PDF (3,900 candidate tokens), 2 cores, fresh processes alternating, CPU of
 * deciding: 29% and 25% less at this budget (medians of 11 and 7), 22% and 14% less at twice it.
 */
export const LATE_INTERRUPT_BUDGET = 600_000;

const lateTierUp = heldFlag(
  `--interrupt-budget=${LATE_INTERRUPT_BUDGET}`,
  `--interrupt-budget=${V8_INTERRUPT_BUDGET}`,
);

/** Whether a long run holds the optimizing compiler to hot functions only now. */
export const tiersUpLate = lateTierUp.held;

/**
 * Hands only the hottest functions to the optimizing compiler while a long first run decides: in a
 * fresh process, compiling the layout rules' many functions as soon as each warms up cost as much
 * CPU as running them (measured: 115 optimizing compiles, some of them repeated after a
 * deoptimization, against 47 at this budget), where most run too few times to earn it back. The
 * hot loops still optimize. Held and lifted like the pause above.
 */
export const tierUpLater = lateTierUp.hold;

export function startWorker(url: URL, options: Omit<WorkerOptions, "execArgv">): Worker {
  compileInForeground();
  return newWorker(url, options);
}

/**
 * Called just before a worker is sent its first call, which makes it compile its engine with `tier`:
 * for the baseline tier the flag holds until the worker's first message, error or exit.
 */
export function engineLoadsWith(worker: Worker, tier: EngineTier): void {
  lastTier = tier;
  if (tier === "optimizing") return;
  baselineLoads(1);
  let loading = true;
  const loaded = () => {
    if (!loading) return;
    loading = false;
    baselineLoads(-1);
  };
  worker.once("message", loaded);
  worker.once("error", loaded);
  worker.once("exit", loaded);
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
