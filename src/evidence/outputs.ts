/**
 * The run's outputs as a renderer may use them: outputs/result.json and outputs/verification.json, each
 * checked before anything is drawn from it. result.json must fit its shape and say the same as a fresh
 * assembly of the run (the check `run verify` makes); verification.json must be the verification of
 * exactly that result.json (it records the result's sha256). Both must hold their seals (output-seal.ts):
 * a check's status or a gate boolean edited without the store key is never drawn as it stands.
 */
import { readFileSync } from "node:fs";
import type { FlowDocument } from "../document/flow/model.js";
import { openFlow, sourceKind } from "../document/flow/open.js";
import { CiteproofError, isCiteproofError } from "../errors.js";
import { type PdfBytes, readPdfFile, readSourceFile, sha256Hex } from "../source/file.js";
import { type AssemblyResult, assemble } from "./assemble.js";
import { type EvidenceContext, evidenceContext } from "./context.js";
import { sealedFor } from "./output-seal.js";
import { CHECK_IDS } from "./reasons.js";
import { RUN_FILES, type RunInfo, runPath } from "./run.js";
import {
  gateOf,
  RESULT_UNSEALED,
  readResult,
  sameAssembly,
  VERIFICATION_FILE,
  type VerificationReport,
} from "./verify.js";

export interface RunOutputs {
  run: RunInfo;
  /** The run's store, log and asset checks, as read for the staleness check. */
  context: EvidenceContext;
  result: AssemblyResult;
  /** sha256 of outputs/result.json as stored (hex). */
  resultSha256: string;
  verification: VerificationReport;
}

export interface ReadOutputsOptions {
  cacheDir?: string;
}

export async function readRunOutputs(
  runOrDir: RunInfo | string,
  options: ReadOutputsOptions = {},
): Promise<RunOutputs> {
  const ctx = evidenceContext(runOrDir, { cacheDir: options.cacheDir });
  const stored = readResult(ctx.run);
  if (!stored) {
    throw new CiteproofError(
      "RESULT_MISSING",
      "outputs/result.json is missing or does not fit its schema: run 'run assemble' first",
      { path: "outputs/result.json", hint: "run assemble" },
    );
  }
  if (!stored.sealed) {
    throw new CiteproofError("RESULT_STALE", `${RESULT_UNSEALED}: run 'run assemble' again`, {
      path: "outputs/result.json",
      hint: "run assemble",
    });
  }
  const fresh = await assemble(ctx, { gate: gateOf(ctx.run, stored), write: false });
  if (!sameAssembly(stored.result, fresh)) {
    throw new CiteproofError(
      "RESULT_STALE",
      "outputs/result.json differs from a fresh assembly of the run (inputs changed, or the file was edited): run 'run assemble' again",
      { path: "outputs/result.json", hint: "run assemble" },
    );
  }
  const resultSha256 = sha256Hex(stored.raw);
  const verification = readVerification(ctx.run);
  if (verification.result_sha256 !== resultSha256) {
    throw new CiteproofError(
      "VERIFICATION_STALE",
      "outputs/verification.json is not the verification of the current result.json: run 'run verify' again",
      { path: `outputs/${VERIFICATION_FILE}`, hint: "run verify" },
    );
  }
  return { run: ctx.run, context: ctx, result: stored.result, resultSha256, verification };
}

/**
 * The bytes of the user-supplied PDF behind a snapshot, hash-checked against the snapshot's asset and
 * page map; a note saying why not when there are none (a retrieved PDF is not kept, a file changed).
 */
export async function snapshotPdf(ctx: EvidenceContext, sourceId: string): Promise<PdfBytes | string> {
  const loaded = ctx.store.load(sourceId);
  if (!loaded.ok) return loaded.message;
  const { asset, document } = loaded.snapshot;
  if (!document) return "the snapshot is not a PDF's text";
  if (!asset) return "a retrieved PDF is not kept, so there is no file to crop from";
  const path = ctx.assets.resolvePath(asset);
  if (!path) return `the PDF's path ${asset.path} leaves the library root`;
  let pdf: PdfBytes;
  try {
    pdf = await readPdfFile(path);
  } catch (error) {
    if (!isCiteproofError(error)) throw error;
    return `the PDF ${asset.path} could not be read (${error.code})`;
  }
  if (pdf.sha256 !== asset.sha256 || pdf.sha256 !== document.sha256) {
    return `the PDF ${asset.path} no longer hashes to the snapshot's sha256`;
  }
  return pdf;
}

/**
 * The flow document of a user-supplied file of a flow kind, read again from the hash-checked file: its
 * text must be the snapshot's, or the reason it cannot be shown (a string).
 */
export async function snapshotFlow(
  ctx: EvidenceContext,
  sourceId: string,
  options: { cacheDir?: string; timeoutMs?: number } = {},
): Promise<FlowDocument | string> {
  const loaded = ctx.store.load(sourceId);
  if (!loaded.ok) return loaded.message;
  const { asset, document, text } = loaded.snapshot;
  if (document || !asset) return "the snapshot is not a user-supplied file's text";
  const path = ctx.assets.resolvePath(asset);
  if (!path) return `the file's path ${asset.path} leaves the library root`;
  let source: PdfBytes;
  try {
    source = await readSourceFile(path);
    if (source.sha256 !== asset.sha256)
      return `the file ${asset.path} no longer hashes to the snapshot's sha256`;
    const kind = sourceKind(source);
    if (kind === "pdf") return "the snapshot is not a user-supplied file's text";
    const doc = await openFlow(source, kind, options);
    return doc.text === text ? doc : `the file ${asset.path} no longer reads as the snapshot's text`;
  } catch (error) {
    if (!isCiteproofError(error)) throw error;
    return `the file ${asset.path} could not be read (${error.code})`;
  }
}

/** outputs/verification.json of the run, its schema and seal checked; VERIFICATION_MISSING or _STALE. */
export function readVerification(run: RunInfo): VerificationReport {
  const path = runPath(run, RUN_FILES.outputs, VERIFICATION_FILE);
  const missing = () =>
    new CiteproofError(
      "VERIFICATION_MISSING",
      `outputs/${VERIFICATION_FILE} is missing or does not fit its schema: run 'run verify' first`,
      { path: `outputs/${VERIFICATION_FILE}`, hint: "run verify" },
    );
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    throw missing();
  }
  if (!isVerification(value) || value.run_id !== run.runId) throw missing();
  if (!sealedFor("verification", run.runId, value)) {
    throw new CiteproofError(
      "VERIFICATION_STALE",
      `outputs/${VERIFICATION_FILE} fails its seal (edited, copied from another run, or written without the store key): run 'run verify' again`,
      { path: `outputs/${VERIFICATION_FILE}`, hint: "run verify" },
    );
  }
  return value;
}

function isVerification(v: unknown): v is VerificationReport {
  if (typeof v !== "object" || v === null) return false;
  const r = v as Record<string, unknown>;
  if (typeof r.run_id !== "string" || typeof r.verified_at !== "string") return false;
  if (r.verdict !== "pass" && r.verdict !== "fail") return false;
  if (r.result_sha256 !== null && typeof r.result_sha256 !== "string") return false;
  if (!Array.isArray(r.checks)) return false;
  return r.checks.every((c: unknown) => {
    if (typeof c !== "object" || c === null) return false;
    const k = c as Record<string, unknown>;
    return (
      (CHECK_IDS as readonly unknown[]).includes(k.id) &&
      (k.status === "pass" || k.status === "fail") &&
      typeof k.meaning === "string" &&
      typeof k.counts === "object" &&
      k.counts !== null &&
      Object.values(k.counts).every((n) => typeof n === "number") &&
      Array.isArray(k.failures) &&
      k.failures.every(
        (f: unknown) =>
          typeof f === "object" &&
          f !== null &&
          typeof (f as Record<string, unknown>).code === "string" &&
          typeof (f as Record<string, unknown>).message === "string",
      )
    );
  });
}
