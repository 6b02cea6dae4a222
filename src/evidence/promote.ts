/**
 * Promotion: the publisher's preflight, then the concept set, all or nothing.
 * The preflight re-reads every snapshot behind the concepts, recomputes its digests, re-slices every
 * excerpt and compares it with result.json, checks paper identifiers and PDF asset hashes, refuses
 * when result.json is stale or the gate blocks (integrity failures block whatever the flag).
 * Writing stages every file in a hidden folder beside the target, flushes it, and renames the folder
 * into place in one step: a crash leaves either the whole concept set or none of it. Nothing in the
 * run folder is touched.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { CiteproofError, isCiteproofError } from "../errors.js";
import { type AcceptedSpan, assemble, samePaperId } from "./assemble.js";
import {
  type Concept,
  type ConceptManifest,
  conceptFromAccepted,
  renderConcept,
  sha256Text,
} from "./concepts.js";
import { evidenceContext } from "./context.js";
import { processAlive, syncDir, writeAndSync } from "./files.js";
import { readVerification } from "./outputs.js";
import { isIntegrityFailure, type ReasonCode } from "./reasons.js";
import { paperIdKind } from "./records.js";
import type { RunInfo } from "./run.js";
import {
  gateOf,
  RESULT_UNSEALED,
  readResult,
  recheckAccepted,
  sameAssembly,
  VERIFICATION_FILE,
  type VerificationReport,
} from "./verify.js";

export const PREFLIGHT_CODES = [
  "RESULT_MISSING",
  "RESULT_STALE",
  "GATE_BLOCKED",
  "NOTHING_TO_PROMOTE",
  "TARGET_EXISTS",
  "VERIFICATION_MISSING",
  "VERIFICATION_STALE",
  "VERIFICATION_FAILED",
] as const;
export type PreflightCode = (typeof PREFLIGHT_CODES)[number];
export const PREFLIGHT_MEANINGS: Record<PreflightCode, string> = {
  RESULT_MISSING: "outputs/result.json is missing or unreadable",
  RESULT_STALE: "outputs/result.json differs from a fresh assembly (inputs changed or the file was edited)",
  GATE_BLOCKED: "the assembler gate blocks: integrity failures, or an enabled gate that fails",
  NOTHING_TO_PROMOTE: "no claim is accepted, so there is no concept to write",
  TARGET_EXISTS: "the knowledge folder already holds this run's concept set (promotion is write-once)",
  VERIFICATION_MISSING: "outputs/verification.json is missing or does not fit its schema: run 'run verify'",
  VERIFICATION_STALE:
    "outputs/verification.json is not the verification of the current result.json, or fails its seal: run 'run verify' again",
  VERIFICATION_FAILED: "outputs/verification.json records a failing check",
};

export interface PromotionFailure {
  code: ReasonCode | PreflightCode;
  message: string;
  path?: string;
  source_id?: string;
}

export interface PromotionReport {
  run_id: string;
  mode: "check" | "write";
  ok: boolean;
  concepts: { id: string; file: string; evidence: number }[];
  excerpts_checked: number;
  snapshots_checked: number;
  failures: PromotionFailure[];
  /** Where the concept set was written (write mode, on success). */
  written_to: string | null;
}

export interface PromoteOptions {
  /** Knowledge folder to write into; without it, only the preflight runs (--check). */
  to?: string;
  cacheDir?: string;
  now?: Date;
}

export async function promoteRun(
  runOrDir: RunInfo | string,
  options: PromoteOptions = {},
): Promise<PromotionReport> {
  // A fresh context: every snapshot is read from disk again, whatever an earlier step saw.
  const ctx = evidenceContext(runOrDir, { cacheDir: options.cacheDir });
  const run = ctx.run;
  const failures: PromotionFailure[] = [];
  const report: PromotionReport = {
    run_id: run.runId,
    mode: options.to !== undefined ? "write" : "check",
    ok: false,
    concepts: [],
    excerpts_checked: 0,
    snapshots_checked: 0,
    failures,
    written_to: null,
  };
  const stored = readResult(run);
  if (!stored) {
    failures.push({ code: "RESULT_MISSING", message: PREFLIGHT_MEANINGS.RESULT_MISSING });
    return report;
  }
  const result = stored.result;
  if (result.run_id !== run.runId) {
    failures.push({
      code: "RESULT_STALE",
      message: `result.json belongs to run ${result.run_id}, not ${run.runId}`,
    });
  } else if (!stored.sealed) {
    failures.push({ code: "RESULT_STALE", message: RESULT_UNSEALED });
  }

  // The run must have been verified, as it stands now, and have passed.
  const verification = verificationFailure(run, sha256Text(stored.raw));
  if (verification) failures.push(verification);

  // Decided from sealed inputs only: the run's records, log and snapshots assembled afresh, the gate
  // from run.json or a result.json whose seal holds; never from result.json's own booleans or lists.
  const fresh = await assemble(ctx, { gate: gateOf(run, stored) });
  // Tamper failures block whatever the gate flag says; an enabled, failing gate blocks too.
  for (const u of fresh.diagnostics.unresolved) {
    if (isIntegrityFailure(u.code)) {
      failures.push({ code: u.code, message: u.message, path: u.path, source_id: u.source_id });
    }
  }
  if (failures.some((f) => f.code !== "RESULT_STALE")) {
    failures.push({
      code: "GATE_BLOCKED",
      message: "snapshot or span integrity failures block promotion whatever the gate",
    });
  } else if (fresh.gate.enabled && fresh.gate.verdict === "fail") {
    failures.push({
      code: "GATE_BLOCKED",
      message: `the gate is enabled and fails (${fresh.diagnostics.unresolved.length} unresolved)`,
    });
  }

  const concepts: Concept[] = [];
  const quoted: AcceptedSpan[] = [];
  const byRecord = new Map<string, AcceptedSpan[]>();
  for (const entry of result.accepted) {
    const list = byRecord.get(entry.record) ?? [];
    list.push(entry);
    byRecord.set(entry.record, list);
  }
  for (const outcome of result.records) {
    if (outcome.kind !== "claim" || outcome.status !== "accepted") continue;
    const spans = byRecord.get(outcome.record) ?? [];
    if (spans.length === 0 || !outcome.text) continue;
    concepts.push(conceptFromAccepted(outcome.id, outcome.text, spans));
    quoted.push(...spans);
  }

  // Re-read, re-hash, re-slice every piece of evidence the concepts quote.
  const seenSources = new Set<string>();
  for (const entry of quoted) {
    report.excerpts_checked++;
    seenSources.add(entry.source_id);
    const problem = recheckAccepted(ctx, entry);
    if (problem) {
      failures.push(problem as PromotionFailure);
      continue;
    }
    const loaded = ctx.store.load(entry.source_id);
    if (!loaded.ok) continue;
    const snapshot = loaded.snapshot;
    const kind = paperIdKind(entry.evidence_id);
    if (kind) {
      const recorded = snapshot.paper?.[kind] ?? null;
      if (recorded === null || !samePaperId(kind, recorded, entry.evidence_id.slice(kind.length + 1))) {
        failures.push({
          code: "NO_PAPER_ID",
          message: `${entry.span}: ${entry.evidence_id} is not confirmed by ${entry.source_id}'s paper identifiers`,
          path: entry.span,
          source_id: entry.source_id,
        });
      }
    }
    if (snapshot.asset) {
      const check = ctx.assets.check(snapshot.asset);
      if (!check.ok) {
        failures.push({
          code: "ASSET_HASH_MISMATCH",
          message: check.message,
          path: entry.span,
          source_id: entry.source_id,
        });
      }
    }
  }
  report.snapshots_checked = seenSources.size;

  // result.json must say exactly what the run's inputs say now.
  if (stored.sealed && !sameAssembly(result, fresh)) {
    failures.push({ code: "RESULT_STALE", message: PREFLIGHT_MEANINGS.RESULT_STALE });
  }
  if (concepts.length === 0)
    failures.push({ code: "NOTHING_TO_PROMOTE", message: PREFLIGHT_MEANINGS.NOTHING_TO_PROMOTE });
  report.concepts = concepts.map((c) => ({ id: c.id, file: c.file, evidence: c.evidence.length }));

  let target: string | undefined;
  if (options.to !== undefined) {
    const knowledge = resolve(options.to);
    target = join(knowledge, run.runId);
    if (existsSync(target)) {
      failures.push({
        code: "TARGET_EXISTS",
        message: `${target} exists; ${PREFLIGHT_MEANINGS.TARGET_EXISTS}`,
      });
    }
  }
  if (failures.length > 0 || target === undefined) {
    report.ok = failures.length === 0;
    return report;
  }
  writeConceptSet(target, concepts, run.runId, sha256Text(stored.raw), options.now ?? new Date());
  report.ok = true;
  report.written_to = target;
  return report;
}

function verificationFailure(run: RunInfo, resultSha: string): PromotionFailure | undefined {
  let verification: VerificationReport;
  try {
    verification = readVerification(run);
  } catch (error) {
    if (!isCiteproofError(error)) throw error;
    const code = error.code === "VERIFICATION_STALE" ? "VERIFICATION_STALE" : "VERIFICATION_MISSING";
    return { code, message: error.message, path: `outputs/${VERIFICATION_FILE}` };
  }
  if (verification.result_sha256 !== resultSha)
    return {
      code: "VERIFICATION_STALE",
      message: PREFLIGHT_MEANINGS.VERIFICATION_STALE,
      path: `outputs/${VERIFICATION_FILE}`,
    };
  if (verification.verdict !== "pass") {
    const failing = verification.checks.filter((c) => c.status !== "pass").map((c) => c.id);
    return {
      code: "VERIFICATION_FAILED",
      message: `${PREFLIGHT_MEANINGS.VERIFICATION_FAILED} (${failing.join(", ")})`,
      path: `outputs/${VERIFICATION_FILE}`,
    };
  }
  return undefined;
}

function writeConceptSet(
  target: string,
  concepts: Concept[],
  runId: string,
  resultSha: string,
  now: Date,
): void {
  const knowledge = resolve(target, "..");
  try {
    mkdirSync(knowledge, { recursive: true });
  } catch (error) {
    throw new CiteproofError(
      "OUTPUT_UNWRITABLE",
      `${knowledge} cannot be created (${(error as NodeJS.ErrnoException).code})`,
    );
  }
  removeAbandonedStaging(knowledge, runId);
  const staging = join(knowledge, `.staging-${runId}-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    mkdirSync(staging);
    const manifest: ConceptManifest = {
      schema_version: 1,
      run_id: runId,
      result_sha256: resultSha,
      promoted_at: now.toISOString(),
      concepts: [],
    };
    for (const concept of concepts) {
      const body = renderConcept(concept, runId, resultSha);
      writeAndSync(join(staging, concept.file), body);
      manifest.concepts.push({ ...concept, sha256: sha256Text(body) });
    }
    writeAndSync(join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    syncDir(staging);
    if (existsSync(target))
      throw new CiteproofError(
        "PROMOTION_FAILED",
        `${target} appeared during promotion; nothing was written`,
      );
    renameSync(staging, target);
    syncDir(knowledge);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (error instanceof CiteproofError) throw error;
    throw new CiteproofError(
      "PROMOTION_FAILED",
      `the concept set could not be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); nothing was promoted`,
    );
  }
}

/** Removes staging folders of this run left by promotions that were killed. */
function removeAbandonedStaging(knowledge: string, runId: string): void {
  const prefix = `.staging-${runId}-`;
  for (const name of readdirSync(knowledge)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split("-")[0]);
    if (Number.isInteger(pid) && processAlive(pid)) continue;
    const path = join(knowledge, name);
    if (statSync(path).isDirectory()) rmSync(path, { recursive: true, force: true });
  }
}
