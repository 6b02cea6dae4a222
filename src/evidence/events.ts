/**
 * The event log, events.jsonl: append-only, one JSON object per line. Each event is appended with
 * a single write on a descriptor opened O_APPEND, so concurrent writers never interleave inside a
 * line; a line left unfinished by a crash is closed off before the next one is written, and readers
 * report it instead of trusting it. Each line carries a seal: an HMAC under the per-user store key
 * (src/util/store-key.ts) over the rest of the line, so a line forged or edited by anyone without
 * the key is reported as invalid and never counts (a fetch line cannot be made up to make a source
 * fresh). Lines are not chained: writers append concurrently without a lock, and removing or
 * reordering lines can only take freshness away, never give it.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { CiteproofError } from "../errors.js";
import { seal, sealHolds } from "../util/store-key.js";
import { EVENT_TYPES, type EventType } from "./reasons.js";
import { RUN_FILES, type RunInfo, runPath } from "./run.js";

export const EVENT_SCHEMA_VERSION = 1;
const EVENT_SEAL = "citeproof-run-event";
const MAX_DETAIL_CHARS = 500;

export interface RunEvent {
  schema_version: number;
  event_id: string;
  run_id: string;
  type: EventType;
  source_id: string;
  url: string | null;
  /** ISO 8601 time of the event. */
  at: string;
  /** True only for a real retrieval (fetch) or a hash-checked local PDF (local_pdf) made now. */
  fresh: boolean;
  /** sha256 (hex) of the snapshot text the event concerns. */
  sha256: string;
  actor: string;
  detail: string;
  /** local_pdf: sha256 of the PDF bytes hashed. */
  asset_sha256?: string;
  /** read: the window read, in code points. */
  start?: number;
  end?: number;
}

export interface EventInput {
  type: EventType;
  sourceId: string;
  url?: string | null;
  fresh: boolean;
  sha256: string;
  actor?: string;
  detail?: string;
  assetSha256?: string;
  start?: number;
  end?: number;
}

/** Appends one event to the run's log and returns it. */
export function appendEvent(run: RunInfo, input: EventInput, now = new Date()): RunEvent {
  if ((input.type === "register" || input.type === "read") && input.fresh) {
    throw new CiteproofError("INTERNAL", `a ${input.type} event is never fresh`);
  }
  const event: RunEvent = {
    schema_version: EVENT_SCHEMA_VERSION,
    event_id: `ev-${now.getTime().toString(36)}-${randomBytes(6).toString("hex")}`,
    run_id: run.runId,
    type: input.type,
    source_id: input.sourceId,
    url: input.url ?? null,
    at: now.toISOString(),
    fresh: input.fresh,
    sha256: input.sha256,
    actor: input.actor ?? "main",
    detail: (input.detail ?? "").slice(0, MAX_DETAIL_CHARS),
  };
  if (input.assetSha256 !== undefined) event.asset_sha256 = input.assetSha256;
  if (input.start !== undefined) event.start = input.start;
  if (input.end !== undefined) event.end = input.end;
  const line = JSON.stringify(event);
  appendLine(runPath(run, RUN_FILES.events), `${line.slice(0, -1)},"seal":"${seal([EVENT_SEAL, line])}"}`);
  return event;
}

function appendLine(path: string, line: string): void {
  let fd: number;
  try {
    fd = openSync(path, "a+", 0o644);
  } catch (error) {
    throw new CiteproofError(
      "OUTPUT_UNWRITABLE",
      `the event log ${path} cannot be opened (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  try {
    const size = fstatSync(fd).size;
    let prefix = "";
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = "\n";
    }
    const data = Buffer.from(`${prefix}${line}\n`, "utf8");
    const written = writeSync(fd, data);
    if (written !== data.length) {
      throw new CiteproofError(
        "OUTPUT_UNWRITABLE",
        `the event log ${path} took a partial write (disk full?)`,
      );
    }
  } finally {
    closeSync(fd);
  }
}

export interface EventLog {
  events: RunEvent[];
  /** Lines that are not a valid event: 1-based line number and why. */
  invalid: { line: number; reason: string }[];
}

/** Reads the run's event log; a missing log is an empty one. */
export function readEvents(run: RunInfo): EventLog {
  let raw: string;
  try {
    raw = readFileSync(runPath(run, RUN_FILES.events), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { events: [], invalid: [] };
    throw new CiteproofError("RUN_CORRUPT", "the event log cannot be read");
  }
  const events: RunEvent[] = [];
  const invalid: { line: number; reason: string }[] = [];
  const lines = raw.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length === 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      invalid.push({ line: i + 1, reason: "not valid JSON (a torn or edited line)" });
      continue;
    }
    const problem = eventProblem(value) ?? sealProblem(value as Record<string, unknown>);
    if (problem) invalid.push({ line: i + 1, reason: problem });
    else {
      const { seal: _sealed, ...event } = value as RunEvent & { seal: string };
      events.push(event);
    }
  }
  return { events, invalid };
}

/** The seal covers the line as written without it: the same keys in the same order. */
function sealProblem(value: Record<string, unknown>): string | undefined {
  const { seal: held, ...rest } = value;
  if (held === undefined) return "carries no seal (written by an older citeproof, or made up)";
  if (!sealHolds(held, [EVENT_SEAL, JSON.stringify(rest)]))
    return "fails its seal (edited or made up, or sealed under another store key)";
  return undefined;
}

function eventProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an object";
  const v = value as Record<string, unknown>;
  if (v.schema_version !== EVENT_SCHEMA_VERSION) return `schema_version is not ${EVENT_SCHEMA_VERSION}`;
  if (!(EVENT_TYPES as readonly string[]).includes(v.type as string)) return "type is not a known event type";
  for (const key of ["event_id", "run_id", "source_id", "at", "sha256"]) {
    if (typeof v[key] !== "string") return `${key} is not a string`;
  }
  if (typeof v.fresh !== "boolean") return "fresh is not a boolean";
  if (!Number.isFinite(Date.parse(v.at as string))) return "at is not a time";
  return undefined;
}
