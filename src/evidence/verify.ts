/**
 * Run verification: re-derives everything result.json claims and reports four checks, each pass or
 * fail with counts, in outputs/verification.json.
 *   C-SNAPSHOT     every snapshot file re-read, all digests recomputed
 *   C-SPAN         every span checked again; every accepted excerpt in result.json re-sliced
 *   C-FRESH-FETCH  every source behind the evidence fresh in this run
 *   C-ASSEMBLER    result.json present and identical to a fresh assembly; no record rejected for itself
 */
import { readdirSync, readFileSync } from "node:fs";
import { CiteproofError } from "../errors.js";
import { sha256Hex } from "../source/file.js";
import { type AcceptedSpan, type AssemblyResult, assemble, resultPath, type Unresolved } from "./assemble.js";
import { type EvidenceContext, evidenceContext } from "./context.js";
import { canonicalJson, writeFileAtomic } from "./files.js";
import { sealedFor, withSeal } from "./output-seal.js";
import { CHECK_MEANINGS, type CheckId, type ReasonCode } from "./reasons.js";
import { RUN_FILES, type RunInfo, runPath } from "./run.js";

export const VERIFICATION_FILE = "verification.json";

export interface CheckFailure {
  code: ReasonCode | "RESULT_MISSING" | "RESULT_STALE" | "STRAY_FILE";
  message: string;
  path?: string;
  source_id?: string;
}

export interface CheckReport {
  id: CheckId;
  status: "pass" | "fail";
  meaning: string;
  counts: Record<string, number>;
  failures: CheckFailure[];
}

export interface VerificationReport {
  schema_version: number;
  run_id: string;
  verified_at: string;
  /** sha256 (hex) of the outputs/result.json this verification read; null when there was none. */
  result_sha256: string | null;
  verdict: "pass" | "fail";
  checks: CheckReport[];
}

export interface StoredResult {
  result: AssemblyResult;
  raw: string;
  /** Whether its seal holds (written by `run assemble` under the store key, for this run, unedited). */
  sealed: boolean;
}

/** Reads outputs/result.json; undefined when absent or not a result. */
export function readResult(run: RunInfo): StoredResult | undefined {
  let raw: string;
  try {
    raw = readFileSync(resultPath(run), "utf8");
  } catch {
    return undefined;
  }
  try {
    const result = JSON.parse(raw) as AssemblyResult;
    if (
      typeof result !== "object" ||
      result === null ||
      !Array.isArray(result.accepted) ||
      !Array.isArray(result.diagnostics?.unresolved) ||
      typeof result.gate !== "object" ||
      !Array.isArray(result.records)
    ) {
      return undefined;
    }
    return { result, raw, sealed: sealedFor("result", run.runId, result) };
  } catch {
    return undefined;
  }
}

/**
 * Whether the gate is enabled for an assembly compared with the stored result: the run's setting
 * (sealed in run.json), or the stored result's when its seal holds (an assembly made with --gate).
 */
export function gateOf(run: RunInfo, stored: StoredResult | undefined): boolean {
  return run.gate || (stored?.sealed === true && stored.result.gate.enabled === true);
}

/** The failure of a stored result whose seal does not hold. */
export const RESULT_UNSEALED =
  "outputs/result.json fails its seal (edited, copied from another run, or written without the store key)";

/**
 * Whether a stored result says the same as a fresh assembly (times aside). Glyph boxes are compared
 * only where both sides have them: they depend on the extraction cache still holding a retrieved
 * PDF's geometry, not on the evidence.
 */
export function sameAssembly(stored: AssemblyResult, fresh: AssemblyResult): boolean {
  if (stored.accepted.length !== fresh.accepted.length) return false;
  for (let i = 0; i < fresh.accepted.length; i++) {
    const a = stored.accepted[i];
    const b = fresh.accepted[i];
    if (a.boxes && b.boxes && canonicalJson(a.boxes) !== canonicalJson(b.boxes)) return false;
  }
  const withoutBoxes = (list: AcceptedSpan[]) => list.map(({ boxes: _b, boxes_note: _n, ...rest }) => rest);
  return (
    stored.run_id === fresh.run_id &&
    canonicalJson(withoutBoxes(stored.accepted)) === canonicalJson(withoutBoxes(fresh.accepted)) &&
    canonicalJson(stored.records) === canonicalJson(fresh.records) &&
    canonicalJson(stored.quotes) === canonicalJson(fresh.quotes) &&
    canonicalJson(stored.diagnostics.unresolved) === canonicalJson(fresh.diagnostics.unresolved) &&
    canonicalJson(stored.gate) === canonicalJson(fresh.gate)
  );
}

/** Re-slices one accepted entry against its snapshot; the failure, or undefined when it holds. */
export function recheckAccepted(ctx: EvidenceContext, entry: AcceptedSpan): CheckFailure | undefined {
  const loaded = ctx.store.load(entry.source_id);
  if (!loaded.ok)
    return { code: loaded.code, message: loaded.message, path: entry.span, source_id: entry.source_id };
  const { snapshot, index } = loaded;
  if (
    !Number.isSafeInteger(entry.start) ||
    !Number.isSafeInteger(entry.end) ||
    entry.start < 0 ||
    entry.start >= entry.end ||
    entry.end > index.length
  ) {
    return {
      code: "SPAN_OUT_OF_RANGE",
      message: `${entry.span}: [${entry.start}, ${entry.end}) is outside ${entry.source_id}`,
      path: entry.span,
      source_id: entry.source_id,
    };
  }
  if (index.slice(entry.start, entry.end) !== entry.excerpt) {
    return {
      code: "EXCERPT_MISMATCH",
      message: `${entry.span}: the excerpt in result.json is not the snapshot's text at [${entry.start}, ${entry.end})`,
      path: entry.span,
      source_id: entry.source_id,
    };
  }
  if (entry.access !== snapshot.access) {
    return {
      code: "ACCESS_MISMATCH",
      message: `${entry.span}: access '${entry.access}' in result.json, '${snapshot.access}' in the snapshot`,
      path: entry.span,
      source_id: entry.source_id,
    };
  }
  return undefined;
}

export interface VerifyOptions {
  write?: boolean;
  cacheDir?: string;
  now?: Date;
}

export async function verifyRun(
  runOrDir: RunInfo | string,
  options: VerifyOptions = {},
): Promise<{ report: VerificationReport; path: string }> {
  const ctx = evidenceContext(runOrDir, { cacheDir: options.cacheDir });
  const stored = readResult(ctx.run);
  const fresh = await assemble(ctx, { gate: gateOf(ctx.run, stored) });
  const failuresOf = (check: CheckId): CheckFailure[] =>
    fresh.diagnostics.unresolved.filter((u) => u.check === check).map(toFailure);

  // C-SNAPSHOT: the whole store, not only the snapshots the records use.
  const ids = ctx.store.list();
  const snapshotFailures: CheckFailure[] = [];
  for (const id of ids) {
    const loaded = ctx.store.load(id);
    if (!loaded.ok)
      snapshotFailures.push({ code: "SNAPSHOT_HASH_MISMATCH", message: loaded.message, source_id: id });
  }
  for (const name of strayFiles(ctx.run)) {
    snapshotFailures.push({
      code: "STRAY_FILE",
      message: `sources/${name} is not a snapshot file name`,
      path: `sources/${name}`,
    });
  }
  for (const f of failuresOf("C-SNAPSHOT")) {
    if (!snapshotFailures.some((s) => s.source_id === f.source_id && s.code === f.code))
      snapshotFailures.push(f);
  }

  // C-SPAN: the assembly's span failures, plus every accepted excerpt of result.json re-sliced.
  const spanFailures = failuresOf("C-SPAN");
  const acceptedStored = stored?.result.accepted ?? [];
  for (const entry of acceptedStored) {
    const problem = recheckAccepted(ctx, entry);
    if (problem) spanFailures.push(problem);
  }

  const freshFailures = failuresOf("C-FRESH-FETCH");
  const sourcesBehind = new Set(
    fresh.diagnostics.unresolved.filter((u) => u.source_id).map((u) => u.source_id as string),
  );
  for (const a of fresh.accepted) sourcesBehind.add(a.source_id);

  const assemblerFailures = failuresOf("C-ASSEMBLER");
  if (!stored) {
    assemblerFailures.unshift({
      code: "RESULT_MISSING",
      message: "outputs/result.json is missing or unreadable; run 'run assemble' first",
    });
  } else if (!stored.sealed) {
    assemblerFailures.unshift({
      code: "RESULT_STALE",
      message: `${RESULT_UNSEALED}; run 'run assemble' again`,
    });
  } else if (!sameAssembly(stored.result, fresh)) {
    assemblerFailures.unshift({
      code: "RESULT_STALE",
      message:
        "outputs/result.json differs from a fresh assembly of the run (inputs changed, or the file was edited)",
    });
  }

  const checks: CheckReport[] = [
    report("C-SNAPSHOT", { snapshots: ids.length, failed: snapshotFailures.length }, snapshotFailures),
    report(
      "C-SPAN",
      { spans: fresh.summary.spans, accepted_rechecked: acceptedStored.length, failed: spanFailures.length },
      spanFailures,
    ),
    report(
      "C-FRESH-FETCH",
      {
        sources: sourcesBehind.size,
        not_fresh: new Set(freshFailures.map((f) => f.source_id)).size,
        invalid_event_lines: ctx.log.invalid.length,
      },
      freshFailures,
    ),
    report(
      "C-ASSEMBLER",
      {
        records: fresh.summary.records,
        accepted: fresh.summary.accepted,
        unresolved: fresh.summary.unresolved,
      },
      assemblerFailures,
    ),
  ];
  const verification: VerificationReport = {
    schema_version: 1,
    run_id: ctx.run.runId,
    verified_at: (options.now ?? new Date()).toISOString(),
    result_sha256: stored ? sha256Hex(stored.raw) : null,
    verdict: checks.every((c) => c.status === "pass") ? "pass" : "fail",
    checks,
  };
  const path = runPath(ctx.run, RUN_FILES.outputs, VERIFICATION_FILE);
  if (options.write !== false) {
    try {
      const sealed = withSeal("verification", ctx.run.runId, verification);
      writeFileAtomic(path, `${JSON.stringify(sealed, null, 2)}\n`);
    } catch (error) {
      throw new CiteproofError(
        "OUTPUT_UNWRITABLE",
        `${path} cannot be written (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      );
    }
  }
  return { report: verification, path };
}

function report(id: CheckId, counts: Record<string, number>, failures: CheckFailure[]): CheckReport {
  return {
    id,
    status: failures.length === 0 ? "pass" : "fail",
    meaning: CHECK_MEANINGS[id],
    counts,
    failures,
  };
}

function toFailure(u: Unresolved): CheckFailure {
  const f: CheckFailure = { code: u.code, message: u.message, path: u.path };
  if (u.source_id) f.source_id = u.source_id;
  return f;
}

function strayFiles(run: RunInfo): string[] {
  let names: string[];
  try {
    names = readdirSync(runPath(run, RUN_FILES.sources));
  } catch {
    return [];
  }
  return names.filter((n) => !n.startsWith(".") && !/^src-[0-9a-f]{64}\.json$/.test(n));
}
