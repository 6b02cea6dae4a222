/**
 * The memory the engine may use. A hostile PDF (a compressed stream that inflates to gigabytes, forms
 * that fan out) makes PDFium allocate without end; its WebAssembly memory is not covered by a
 * worker's heap limit, so it is capped here, and a page that needs more fails with
 * ENGINE_MEMORY_LIMIT instead of taking the machine's memory.
 */
import { CiteproofError } from "../errors.js";

/** The whole process's budget by default, in MiB. */
export const DEFAULT_MAX_MEMORY_MB = 1024;
/** The smallest budget accepted: the engine needs room to open an ordinary paper. */
export const MIN_MAX_MEMORY_MB = 384;
/** What the process needs besides the engines' memory: Node itself, the worker heaps, the pages held. */
const RESERVE_MB = 256;
/** The least an engine is given when the budget is shared between several. */
export const MIN_ENGINE_SHARE_MB = MIN_MAX_MEMORY_MB - RESERVE_MB;

/** The budget in MiB: $CITEPROOF_MAX_MEMORY_MB, else the default. */
export function maxMemoryMb(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.CITEPROOF_MAX_MEMORY_MB;
  if (raw === undefined || raw === "") return DEFAULT_MAX_MEMORY_MB;
  const mb = Number(raw);
  if (!Number.isInteger(mb) || mb < MIN_MAX_MEMORY_MB) {
    throw new CiteproofError(
      "USAGE",
      `CITEPROOF_MAX_MEMORY_MB must be a whole number of MiB, at least ${MIN_MAX_MEMORY_MB} (got ${JSON.stringify(raw)})`,
      { option: "CITEPROOF_MAX_MEMORY_MB", limit: MIN_MAX_MEMORY_MB },
    );
  }
  return mb;
}

/** How far each of `engines` engines' memory may grow, in bytes, within a budget of `totalMb`. */
export function engineMemoryBytes(totalMb: number, engines = 1): number {
  return Math.floor(((totalMb - RESERVE_MB) / Math.max(1, engines)) * 2 ** 20);
}
