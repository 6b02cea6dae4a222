/**
 * Runs one job: the same operation the single command runs, with the same context a command-line
 * request document gets (paths admitted inside the allowed roots), and its `--json` document as the
 * result line, with the job's id and a `batch` record (kind, line, wall time, the source's sha256, exit).
 */
import { performance } from "node:perf_hooks";
import { parseCiteCheckRequest } from "../checks/cite-check/request.js";
import { errorDocument } from "../error-document.js";
import { argumentName, asCiteproofError, type CiteproofError, type Naming } from "../errors.js";
import { checkTextOperation } from "../operations/check-text.js";
import { checkCitations, citeCheckOperation } from "../operations/cite-check.js";
import { flagName } from "../operations/flag-name.js";
import type { AnyOperation, OperationContext } from "../operations/operation.js";
import { runOperation } from "../operations/run-operation.js";
import { verifyOperation } from "../operations/verify.js";
import type { Job, JobKind, JobLine } from "./job.js";

/** What every job of a batch shares: the working directory, allowed roots and document options. */
export interface BatchEnv {
  cwd: string;
  roots: readonly string[];
  open: OperationContext["open"];
}

export interface BatchRecord {
  job: JobKind | null;
  /** One-based line of the jobs file. */
  line: number;
  /** Wall time of the job, in milliseconds. */
  ms: number;
  /** sha256 of the source the job read, when it got that far. */
  sha256: string | null;
  /** The single command's exit code: 0 nothing failed, 1 a check FAILs, 2 the job could not run. */
  exit: 0 | 1 | 2;
  /** The batch's options that shape results, as the line was written under them (results-file.ts). */
  options?: BatchRunOptions;
  /** HMAC-SHA256 under the store key over the rest of the line (results-file.ts). */
  seal?: string;
}

/** The options of a batch that shape its results: a resume or a merge must use the same. */
export interface BatchRunOptions {
  cwd: string;
  roots: string[];
  timeout_ms: number | null;
  max_bytes: number | null;
}

export function runOptionsOf(env: BatchEnv): BatchRunOptions {
  return {
    cwd: env.cwd,
    roots: [...env.roots],
    timeout_ms: env.open.timeoutMs ?? null,
    max_bytes: env.open.maxBytes ?? null,
  };
}

/** One line of a results file: the command's JSON document (or its error document), id and batch. */
export type ResultLine = { id: string | null; batch: BatchRecord } & Record<string, unknown>;

interface KindRunner {
  op: AnyOperation;
  run(spec: JobLine, ctx: OperationContext): Promise<unknown>;
  sha256(json: Record<string, unknown>): string | null;
}

/** `pdf` (read as a PDF) or `source` (its kind from its content), as the job names it. */
const namedSource = (spec: JobLine): { pdf: string } | { source: string } =>
  spec.source !== undefined ? { source: spec.source } : { pdf: spec.pdf as string };

const sha = (json: Record<string, unknown>, key: string) => (json[key] as { sha256: string }).sha256;

const RUNNERS: Record<JobKind, KindRunner> = {
  verify: {
    op: verifyOperation,
    // Through the one door every interface uses: the line's fields read by the operation's schema.
    run: async (spec, ctx) =>
      (
        await runOperation(
          verifyOperation,
          { ...namedSource(spec), evidence: spec.verify ?? [], password: spec.password },
          ctx,
        )
      ).result,
    sha256: (json) => sha(json, "document"),
  },
  check_text: {
    op: checkTextOperation,
    run: async (spec, ctx) =>
      (
        await runOperation(
          checkTextOperation,
          spec.bib !== undefined
            ? { bib: spec.bib, draft: spec.check_text ?? "" }
            : { ...namedSource(spec), draft: spec.check_text ?? "", password: spec.password },
          ctx,
        )
      ).result,
    // A draft checked against a bibliography reads many sources, each named with its sha256 in `sources`.
    sha256: (json) => (json.document === undefined ? null : sha(json, "document")),
  },
  cite_check: {
    op: citeCheckOperation,
    // As `cite-check --request` runs it: the request's own rules, then the check.
    run: (spec, ctx) => {
      const source = spec.url !== undefined ? { url: spec.url } : { path: spec.pdf };
      const request = parseCiteCheckRequest({
        operation: "cite_check",
        ...spec.cite_check,
        sources: [source],
      });
      return checkCitations(request, ctx, spec.password);
    },
    sha256: (json) => sha(json, "source"),
  },
};

export async function runJob(job: Job, env: BatchEnv): Promise<ResultLine> {
  const started = performance.now();
  // A line is the single command's --json document, so its messages name settings as the CLI's flags.
  const ctx: OperationContext = { cwd: env.cwd, access: env.roots, open: env.open, settingName: flagName };
  const runner = RUNNERS[job.kind];
  try {
    const result = await runner.run(job.spec, ctx);
    const json = runner.op.json(result) as Record<string, unknown>;
    const batch: BatchRecord = {
      job: job.kind,
      line: job.line,
      ms: elapsed(started),
      sha256: runner.sha256(json),
      exit: runner.op.exitCode(result),
    };
    return { id: job.id, batch, ...json };
  } catch (error) {
    return errorLine(job.id, job.kind, job.line, asCiteproofError(error), elapsed(started));
  }
}

/** A result line names a setting as the batch's flag, a field as an agent's argument. */
const BATCH_NAMING: Naming = { option: (option) => `--${option.replace(/_/g, "-")}`, field: argumentName };

/**
 * The line of a job that could not run: the `{"error"}` document every interface gives (settings
 * named as the batch's flags).
 */
export function errorLine(
  id: string | null,
  kind: JobKind | null,
  line: number,
  error: CiteproofError,
  ms = 0,
): ResultLine {
  return {
    id,
    batch: { job: kind, line, ms, sha256: null, exit: 2 },
    error: errorDocument(error, BATCH_NAMING),
  };
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
