/**
 * How many engine workers one extraction may use. A long document read whole is split over several
 * workers, each opening the same bytes and taking its share of the pages; a short one is not worth
 * the extra engine start-ups (see PARALLEL_MIN_PAGES).
 */
import { availableParallelism } from "node:os";
import { CiteproofError } from "../errors.js";
import { busyCoresNow } from "./busy-cores.js";

/** More workers than this are refused: each loads its own engine and holds the document. */
export const MAX_JOBS = 16;
/** The default never goes past this, however many cores there are. */
const DEFAULT_JOBS_CAP = 4;
/**
 * Below this many pages one worker does it all. Measured with `npm run bench`-style ratios (wall of
 * two workers over one, same run, alternating): see docs/internals.md.
 */
export const PARALLEL_MIN_PAGES = 300;
/** A worker's share of the pages comes in runs of this many consecutive pages, dealt in turn. */
export const PAGE_RUN = 16;

/**
 * Checks a job count given as a number (the `jobs` option) or text (from $CITEPROOF_JOBS, which the
 * message then names).
 */
export function parseJobs(value: number | string, from: "option" | "CITEPROOF_JOBS" = "option"): number {
  const jobs = typeof value === "number" ? value : /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > MAX_JOBS) {
    const what = from === "option" ? "jobs" : from;
    throw new CiteproofError(
      "USAGE",
      `${what} must be a whole number from 1 to ${MAX_JOBS} (got ${JSON.stringify(value)})`,
      from === "option" ? { option: "jobs", limit: MAX_JOBS } : { limit: MAX_JOBS },
    );
  }
  return jobs;
}

/** The jobs asked for: the option, else $CITEPROOF_JOBS, else defaultJobs(). */
export function resolveJobs(option: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (option !== undefined) return parseJobs(option);
  const raw = env.CITEPROOF_JOBS;
  if (raw !== undefined && raw !== "") return parseJobs(raw, "CITEPROOF_JOBS");
  return defaultJobs();
}

/**
 * The cores not kept busy by other processes (see busy-cores.ts), at least 1, at most 4: a second
 * worker on a core another process keeps busy adds an engine start-up and gains nothing.
 */
export function defaultJobs(cores = availableParallelism(), busyElsewhere = busyCoresNow()): number {
  return Math.max(1, Math.min(DEFAULT_JOBS_CAP, cores, Math.round(cores - busyElsewhere)));
}

/** The pages each of `jobs` workers takes: runs of PAGE_RUN pages dealt in turn, each list in order. */
export function dealPages(pages: readonly number[], jobs: number): number[][] {
  const shares: number[][] = Array.from({ length: jobs }, () => []);
  for (let i = 0; i < pages.length; i++) shares[Math.floor(i / PAGE_RUN) % jobs].push(pages[i]);
  return shares.filter((share) => share.length > 0);
}
