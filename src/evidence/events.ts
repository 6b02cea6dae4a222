/**
 * The event log, events.jsonl: append-only, one JSON object per line. Each event is appended with
 * a single write on a descriptor opened O_APPEND, so concurrent writers never interleave inside a
 * line; a line left unfinished by a crash is closed off before the next one is written, and readers
 * report it instead of trusting it. Each line carries a seal: an HMAC under the per-user store key
 * (src/util/store-key.ts) over the rest of the line, so a line forged or edited by anyone without
 * the key is reported as invalid and never counts (a fetch line cannot be made up to make a source
 * fresh). The lines are chained: each names in `prev` the seal of the last valid line before it
 * when it was written (the first, the run's start), and the seal covers `prev`. A reader refuses
 * the log with RUN_CORRUPT when a line names a seal no earlier valid line holds: a line removed,
 * lines reordered, a line edited (its seal no longer holds, so the next line's link is broken).
 * Writers append without a lock, so two at once may name the same line (a fork); that is allowed.
 * A log written before the chain (a sealed line with no `prev`) is refused the same way.
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
  appendLine(runPath(run, RUN_FILES.events), run, event);
  return event;
}

/** The link the first line of a run's log names: the run itself. */
function chainStart(runId: string): string {
  return `run:${runId}`;
}

function sealedLine(event: RunEvent, prev: string): string {
  const line = JSON.stringify({ ...event, prev });
  return `${line.slice(0, -1)},"seal":"${seal([EVENT_SEAL, line])}"}`;
}

function appendLine(path: string, run: RunInfo, event: RunEvent): void {
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
    const prev = size > 0 ? (lastSeal(fd, size) ?? chainStart(run.runId)) : chainStart(run.runId);
    const data = Buffer.from(`${prefix}${sealedLine(event, prev)}\n`, "utf8");
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

/** Bytes read at a time when looking back for the last valid line. */
const TAIL_CHUNK = 64 * 1024;

/** The seal of the log's last valid line, read backwards from its end; undefined when none is. */
function lastSeal(fd: number, size: number): string | undefined {
  let end = size;
  let carry = Buffer.alloc(0);
  while (end > 0) {
    const from = Math.max(0, end - TAIL_CHUNK);
    const chunk = Buffer.alloc(end - from);
    readSync(fd, chunk, 0, chunk.length, from);
    const data = Buffer.concat([chunk, carry]);
    // The first piece may be the end of a line that starts in an earlier chunk: it is kept for then.
    let stop = data.length;
    for (let i = data.length - 1; i >= -1; i--) {
      if (i >= 0 && data[i] !== 0x0a) continue;
      if (i < 0 && from > 0) break;
      const value = parsedLine(data.subarray(i + 1, stop).toString("utf8"));
      if (value && eventProblem(value) === undefined && sealProblem(value) === undefined)
        return value.seal as string;
      stop = i;
    }
    carry = data.subarray(0, stop);
    end = from;
  }
  return undefined;
}

function parsedLine(line: string): Record<string, unknown> | undefined {
  if (line.length === 0) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
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
  const links = new Set([chainStart(run.runId)]);
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
      const { seal: sealed, prev, ...event } = value as RunEvent & { seal: string; prev?: unknown };
      if (typeof prev !== "string" || !links.has(prev)) throw brokenChain(i + 1, prev);
      links.add(sealed);
      events.push(event);
    }
  }
  return { events, invalid };
}

function brokenChain(line: number, prev: unknown): CiteproofError {
  const why =
    prev === undefined
      ? "names no line before it: it was written before event lines were chained (start a new run)"
      : "names a line no valid line before it is: a line was removed, edited or moved";
  return new CiteproofError("RUN_CORRUPT", `the event log's line ${line} ${why}`, { line });
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
