/**
 * V8's flags for the CLI's own process. They are the whole process's (every worker thread takes them
 * too; Node refuses V8 flags in a worker's execArgv), so only the CLI, which owns its process, sets
 * them: nothing a host imports does. The entry sets the fixed ones before the work starts, and
 * installs `cliTuning()` as the process's tuning (src/document/process-tuning.ts), which the library
 * tells of the moments a flag pays. A process started with a flag of its own on a switch the CLI
 * would set (`node --no-opt citeproof ...`, or in NODE_OPTIONS) is left with it.
 */
import { setFlagsFromString } from "node:v8";

/**
 * Set at the entry. `--no-concurrent-recompilation`: optimizing compiles run on the thread that needs
 * them, not in the background. Node 20 aborts the whole process ("NodePlatform::ForIsolate: Assertion
 * failed") when a worker ends while an optimizing compile for it is still running on a background
 * thread, and an engine worker is terminated at every deadline; a background compile is also what an
 * ending worker can hang on for good (nodejs/node#54918). Measured on a 1,000-page extraction: no more
 * CPU, no slower. Set at run time it reaches the isolates made after it (the engine workers, whose ending
 * is the hazard); the main thread's isolate keeps compiling in the background (a 1,000-page cold verify:
 * 0.89 s of background-thread CPU, 0.36 s when Node itself is started with the flag).
 */
export const CLI_V8_FLAGS: readonly string[] = ["--no-concurrent-recompilation"];

/** The switch a flag sets (`--no-opt` and `--opt` both set `opt`; `_` and `-` are one). */
export function switchOf(flag: string): string {
  return flag
    .replace(/^--(no-)?/, "")
    .split("=")[0]
    .replace(/_/g, "-");
}

/** The switches the process was started with (its command line and NODE_OPTIONS). */
function ownSwitches(execArgv: readonly string[], nodeOptions: string | undefined): Set<string> {
  return new Set(
    [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].filter((a) => a.startsWith("--")).map(switchOf),
  );
}

/** The flags of CLI_V8_FLAGS whose switch the process was not started with. */
export function flagsToSet(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const own = ownSwitches(execArgv, nodeOptions);
  return CLI_V8_FLAGS.filter((flag) => !own.has(switchOf(flag)));
}

/** Sets the CLI's fixed V8 flags on its own process. */
export function tuneCliProcess(): void {
  for (const flag of flagsToSet(process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString(flag);
}

/** The switches of V8's optimizing compiler: a process started with one of them is left as it is. */
const OPTIMIZER_SWITCHES = [
  "opt",
  "turbofan",
  "jitless",
  "max-opt",
  "always-turbofan",
  "always-opt",
  "interrupt-budget",
  "liftoff-only",
  "liftoff",
];

/**
 * V8's interrupt budget: how much bytecode a function runs between the ticks that decide whether
 * to hand it to the optimizing compiler. 66 KB is V8's own default (`node --v8-options` prints it;
 * a test checks it against the running Node), to which the budget returns after a late run.
 */
export const V8_INTERRUPT_BUDGET = 66 * 1024;
/**
 * The budget while a long first decision runs: nine times V8's. Measured on the 1,000-page bench PDF
 * (3,900 candidate tokens), 2 cores, fresh processes alternating, CPU of deciding: 29% and 25% less
 * at this budget (medians of 11 and 7), 22% and 14% less at twice it.
 */
export const LATE_INTERRUPT_BUDGET = 600_000;

/** A flag held while any run that asked for it runs: set by the first hold, undone by the last end. */
function heldFlag(set: string, unset: string, apply: (flag: string) => void) {
  let holds = 0;
  const hold = () => {
    if (holds++ === 0) apply(set);
    return () => {
      if (--holds === 0) apply(unset);
    };
  };
  return { hold, held: () => holds > 0 };
}

export interface CliTuning {
  engineCompiles(tier: "baseline" | "optimizing"): () => void;
  shortRun(): () => void;
  longFirstDecision(): () => void;
  /** Whether V8's optimizing compiler is paused now (a short run holds it). */
  optimizerPaused(): boolean;
  /** Whether the interrupt budget is raised now (a long first decision holds it). */
  tiersUpLate(): boolean;
  /** Whether new WebAssembly compiles on V8's baseline compiler alone now. */
  baselineOnly(): boolean;
}

/**
 * The CLI's tuning (the library calls each moment's end once):
 * - a fresh worker compiling its engine for a short run: `--liftoff-only` until its first reply.
 *   V8's flag is taken when a module is compiled; whatever else compiles WebAssembly later (OCR)
 *   keeps the optimizing tier. Measured on 2 cores (cold verify, alternating runs): baseline only
 *   takes 10-22% less CPU up to ~200 pages, about the same at ~400 and 13% more at 1,000.
 * - a short run: `--no-turbofan` while it runs. In a fresh process the optimizing compiles (on the
 *   thread that asked for them, above) cost more than a few pages or anchors earn back: the 16-page
 *   cold verify takes 5-8% less CPU; a first decision of few anchors 30-65% less.
 * - a long first decision: the interrupt budget at LATE_INTERRUPT_BUDGET while it runs, so only the
 *   hottest functions reach the optimizing compiler (115 optimizing compiles down to 47 on the
 *   1,000-page bench PDF).
 * A process started with an optimizer switch of its own gets none of them.
 */
export function cliTuning(
  apply: (flag: string) => void = setFlagsFromString,
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
): CliTuning {
  const own = ownSwitches(execArgv, nodeOptions);
  const leftAlone = OPTIMIZER_SWITCHES.some((s) => own.has(s));
  const apply_ = leftAlone ? () => {} : apply;
  const baseline = heldFlag("--liftoff-only", "--no-liftoff-only", apply_);
  const pause = heldFlag("--no-turbofan", "--turbofan", apply_);
  const late = heldFlag(
    `--interrupt-budget=${LATE_INTERRUPT_BUDGET}`,
    `--interrupt-budget=${V8_INTERRUPT_BUDGET}`,
    apply_,
  );
  const none = () => () => {};
  return {
    engineCompiles: (tier) => (tier === "baseline" && !leftAlone ? baseline.hold() : () => {}),
    shortRun: leftAlone ? none : pause.hold,
    longFirstDecision: leftAlone ? none : late.hold,
    optimizerPaused: pause.held,
    tiersUpLate: late.held,
    baselineOnly: baseline.held,
  };
}
