/**
 * Moments where tuning V8 would pay, told to whoever owns the process. citeproof's library never
 * changes V8's flags itself: they are the whole process's, and a program that imports citeproof owns
 * its process (an MCP host, a pi session, a server). By default every moment below does nothing.
 *
 * The CLI owns its process, so its entry installs a tuning (`src/cli/v8-tuning.ts`) that sets flags
 * at these moments. The public API does not export `setProcessTuning`: a host keeps its flags.
 *
 * Each call returns the moment's end; the library calls it once, also when the work throws.
 */

/**
 * How a fresh worker is to compile the engine: `baseline` for a short run (a check's cited pages),
 * where V8's baseline wasm compiler alone is cheaper than tiering up; `optimizing` for a long one.
 */
export type EngineTier = "baseline" | "optimizing";

export interface ProcessTuning {
  /** A fresh worker compiles its engine for a run of `tier`; the end comes with its first reply. */
  engineCompiles(tier: EngineTier): () => void;
  /** A short run starts: a fresh worker's first few pages, or a first decision of few anchors. */
  shortRun(): () => void;
  /** A process's first decision of many anchors starts, where most functions run too few times to optimize. */
  longFirstDecision(): () => void;
}

const nothing = () => {};

/** The tuning of a process whose owner installed none: nothing is changed. */
export const NO_TUNING: ProcessTuning = {
  engineCompiles: () => nothing,
  shortRun: () => nothing,
  longFirstDecision: () => nothing,
};

let installed: ProcessTuning = NO_TUNING;

/** Installs the process owner's tuning (undefined: none). Only a process's owner calls this. */
export function setProcessTuning(tuning: ProcessTuning | undefined): void {
  installed = tuning ?? NO_TUNING;
}

/** The tuning in force. */
export function processTuning(): ProcessTuning {
  return installed;
}

/** Runs `end` once however often the function returned is called. */
export function once(end: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    end();
  };
}
