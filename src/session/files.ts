/**
 * Session files: plain JSON (or one JSON document per line), each wrapped in an envelope that names
 * the file's kind and schema and carries the sha256 of its payload and a seal: an HMAC under the
 * per-user store key (src/util/store-key.ts) over the kind, schema, hash and what the record is bound
 * to (for the lines of a file, the seal of the line before, the first line's the number of lines, so
 * an edit, a removal, the last line's included, or a reorder breaks the chain). A file is only ever written whole, to a temporary name that is then renamed into place; a
 * read re-checks the envelope, the hash and the seal and refuses, with SESSION_CORRUPT, anything that
 * does not hold. Nothing is repaired.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { CiteproofError } from "../errors.js";
import { replaceFile, syncDir } from "../util/atomic-file.js";
import { seal, sealHolds } from "../util/store-key.js";

export { syncDir };

export const SESSION_FORMAT = "citeproof-session";
/** Schema of the session's own files (session.json, pool.jsonl); the extraction record has its own. */
export const SESSION_SCHEMA = 1;

export const SESSION_FILE_KINDS = ["session", "claim", "extraction"] as const;
export type SessionFileKind = (typeof SESSION_FILE_KINDS)[number];

interface Envelope {
  format: typeof SESSION_FORMAT;
  file: SessionFileKind;
  schema: number;
  sha256: string;
  payload: unknown;
  seal: string;
}

export function payloadHash(payload: unknown): string {
  return createHash("sha256").update(JSON.stringify(payload)).digest("hex");
}

function sealParts(file: SessionFileKind, schema: number, sha256: string, bound: string): string[] {
  return [SESSION_FORMAT, file, String(schema), sha256, bound];
}

/** `bound`: what the record is tied to (the seal of the line before it, or a file's own binding). */
export function envelope(
  file: SessionFileKind,
  payload: unknown,
  schema = SESSION_SCHEMA,
  bound = "",
): Envelope {
  const sha256 = payloadHash(payload);
  return {
    format: SESSION_FORMAT,
    file,
    schema,
    sha256,
    payload,
    seal: seal(sealParts(file, schema, sha256, bound)),
  };
}

/** Writes bytes to a temporary file beside `path`, flushes them, and renames the file into place. */
export function writeAtomic(path: string, data: string | Uint8Array): void {
  try {
    replaceFile(path, data, 0o666);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code ?? "unknown error";
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write session file ${path} (${code})`);
  }
  syncDir(dirname(path));
}

export function writeJsonFile(
  path: string,
  file: SessionFileKind,
  payload: unknown,
  schema?: number,
): string {
  const env = envelope(file, payload, schema);
  writeAtomic(path, `${JSON.stringify(env)}\n`);
  return env.sha256;
}

/**
 * Where a chain of `count` lines starts: its `start` and its length, so the first line's seal covers
 * how many lines follow and removing any of them, the last included, fails it.
 */
function chainStart(start: string, count: number): string {
  return `${start}\0lines ${count}`;
}

/**
 * Writes the lines as one chain: each line is sealed together with the seal of the line before (the
 * first with `start` and the number of lines). A chain is never written empty.
 */
export function writeJsonLines(
  path: string,
  file: SessionFileKind,
  payloads: readonly unknown[],
  start: string,
): void {
  let bound = chainStart(start, payloads.length);
  const lines = payloads.map((p) => {
    const env = envelope(file, p, SESSION_SCHEMA, bound);
    bound = env.seal;
    return `${JSON.stringify(env)}\n`;
  });
  writeAtomic(path, lines.join(""));
}

export interface ReadPayload {
  payload: unknown;
  schema: number;
  sha256: string;
  seal: string;
}

/** Reads a file's text; a missing file is `undefined`, anything else unreadable is corrupt. */
export function readSessionText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === "ENOENT") return undefined;
    throw corrupt(path, `cannot be read (${(error as NodeJS.ErrnoException)?.code ?? "unknown error"})`);
  }
}

export function readJsonFile(
  path: string,
  file: SessionFileKind,
  schemas: readonly number[] = [SESSION_SCHEMA],
): ReadPayload {
  const text = readSessionText(path);
  if (text === undefined) throw corrupt(path, "is missing");
  return checkEnvelope(text, path, file, schemas);
}

/** Reads a chain written by `writeJsonLines` with the same `start`. */
export function readJsonLines(path: string, file: SessionFileKind, start: string): ReadPayload[] {
  const text = readSessionText(path);
  if (text === undefined) return [];
  if (text.length > 0 && !text.endsWith("\n")) throw corrupt(path, "ends in a torn line");
  const lines = text.split("\n").slice(0, -1);
  if (lines.length === 0)
    throw corrupt(path, "holds no line (a chain is never written empty: its lines were removed)");
  let bound = chainStart(start, lines.length);
  return lines.map((line, i) => {
    const read = checkEnvelope(line, `${path} line ${i + 1}`, file, [SESSION_SCHEMA], bound, lines.length);
    bound = read.seal;
    return read;
  });
}

function checkEnvelope(
  text: string,
  where: string,
  file: SessionFileKind,
  schemas: readonly number[],
  bound = "",
  chained?: number,
): ReadPayload {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw corrupt(where, "is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw corrupt(where, "is not a session record");
  const env = value as Partial<Envelope>;
  if (env.format !== SESSION_FORMAT || env.file !== file) {
    throw corrupt(where, `is not a ${file} record of a citeproof session`);
  }
  if (typeof env.schema !== "number" || !schemas.includes(env.schema)) {
    throw corrupt(
      where,
      `has schema ${JSON.stringify(env.schema)}, which this citeproof does not read (it reads ${schemas.join(", ")})`,
    );
  }
  if (typeof env.sha256 !== "string" || !("payload" in env))
    throw corrupt(where, "lacks its sha256 or payload");
  if (payloadHash(env.payload) !== env.sha256) throw corrupt(where, "fails its sha256 check");
  if (env.seal === undefined)
    throw corrupt(where, "carries no seal (written by an older citeproof, or edited)");
  if (!sealHolds(env.seal, sealParts(file, env.schema, env.sha256, bound)))
    throw corrupt(
      where,
      chained === undefined
        ? "fails its seal: it was edited, moved or reordered, or sealed under another store key"
        : `fails its seal: it was edited, moved or reordered, lines were removed or added (the file holds ${chained}), or it was sealed under another store key`,
    );
  return { payload: env.payload, schema: env.schema, sha256: env.sha256, seal: env.seal as string };
}

export function corrupt(where: string, problem: string): CiteproofError {
  return new CiteproofError(
    "SESSION_CORRUPT",
    `session file ${where} ${problem}; it was not changed (restore it or start a new session)`,
  );
}
