/**
 * A run folder: run.json (identity, creation time, library root, gate default; sealed under the
 * store key, so the library root and the gate cannot be edited without the key), sources/ (the
 * snapshot store), events.jsonl (the event log), records/ (what the agents wrote) and outputs/
 * (what the assembler and verifier derive).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { CiteproofError } from "../errors.js";
import { writeFileOnce } from "./files.js";
import { sealedFor, withSeal } from "./output-seal.js";

export const RUN_SCHEMA_VERSION = 1;

export interface RunInfo {
  /** Absolute path of the run folder. */
  dir: string;
  runId: string;
  /** ISO 8601 time the run was created; a fresh retrieval happens at or after it. */
  createdAt: string;
  createdAtMs: number;
  /** Absolute folder that user-supplied PDF paths are relative to. */
  libraryRoot: string;
  /** Whether the assembler gate blocks by default in this run. */
  gate: boolean;
}

export interface NewRunOptions {
  libraryRoot?: string;
  gate?: boolean;
  /** For tests and imports of a known time only; defaults to now. */
  now?: Date;
}

export const RUN_FILES = {
  run: "run.json",
  events: "events.jsonl",
  sources: "sources",
  records: "records",
  outputs: "outputs",
} as const;

/** Creates a run folder. The folder may exist only if it is empty. */
export function createRun(dir: string, options: NewRunOptions = {}): RunInfo {
  const abs = resolve(dir);
  if (existsSync(abs)) {
    if (!statSync(abs).isDirectory())
      throw new CiteproofError("RUN_EXISTS", `${dir} exists and is not a folder`);
    if (readdirSync(abs).length > 0) {
      throw new CiteproofError("RUN_EXISTS", `${dir} is not empty; a run needs a new or empty folder`);
    }
  }
  const libraryRoot = resolve(options.libraryRoot ?? process.cwd());
  if (!existsSync(libraryRoot) || !statSync(libraryRoot).isDirectory()) {
    throw new CiteproofError("FILE_NOT_FOUND", `library root ${libraryRoot} is not a folder`);
  }
  mkdirSync(abs, { recursive: true });
  for (const sub of [RUN_FILES.sources, RUN_FILES.records, RUN_FILES.outputs]) mkdirSync(join(abs, sub));
  const createdAt = (options.now ?? new Date()).toISOString();
  const runId = `run-${randomBytes(8).toString("hex")}`;
  const record = withSeal("run", runId, {
    schema_version: RUN_SCHEMA_VERSION,
    run_id: runId,
    created_at: createdAt,
    library_root: libraryRoot,
    gate: options.gate === true,
  });
  if (!writeFileOnce(join(abs, RUN_FILES.run), `${JSON.stringify(record, null, 2)}\n`)) {
    throw new CiteproofError("RUN_EXISTS", `${dir} already holds a run`);
  }
  return toInfo(abs, record);
}

/** Opens an existing run folder. */
export function openRun(dir: string): RunInfo {
  const abs = resolve(dir);
  const path = join(abs, RUN_FILES.run);
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch {
    throw new CiteproofError(
      "RUN_NOT_FOUND",
      `${dir} is not a run folder (no ${RUN_FILES.run}); create one with 'run new'`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new CiteproofError("RUN_CORRUPT", `${path} is not valid JSON`);
  }
  const v = value as Record<string, unknown>;
  if (
    typeof v !== "object" ||
    v === null ||
    v.schema_version !== RUN_SCHEMA_VERSION ||
    typeof v.run_id !== "string" ||
    !/^run-[0-9a-f]{16}$/.test(v.run_id) ||
    typeof v.created_at !== "string" ||
    !Number.isFinite(Date.parse(v.created_at)) ||
    typeof v.library_root !== "string" ||
    typeof v.gate !== "boolean"
  ) {
    throw new CiteproofError(
      "RUN_CORRUPT",
      `${path} does not describe a run (schema_version ${RUN_SCHEMA_VERSION})`,
    );
  }
  if (!sealedFor("run", v.run_id, v)) {
    throw new CiteproofError(
      "RUN_CORRUPT",
      `${path} fails its seal (edited, copied from another run, made without the store key, or written before runs were sealed); start a new run`,
    );
  }
  return toInfo(abs, v as unknown as RunRecord);
}

interface RunRecord {
  run_id: string;
  created_at: string;
  library_root: string;
  gate: boolean;
}

function toInfo(dir: string, record: RunRecord): RunInfo {
  return {
    dir,
    runId: record.run_id,
    createdAt: record.created_at,
    createdAtMs: Date.parse(record.created_at),
    libraryRoot: record.library_root,
    gate: record.gate,
  };
}

export function runPath(run: RunInfo, ...parts: string[]): string {
  return join(run.dir, ...parts);
}
