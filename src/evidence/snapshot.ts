/**
 * The snapshot store: one write-once file per snapshot at sources/src-<sha256>.json.
 *   source_id     = "src-" + sha256(utf8(url) + NUL + utf8(text))
 *   content_hash  = "sha256:" + sha256(utf8(text))
 *   metadata_hash = "sha256:" + sha256(canonical JSON of every other field)
 * The text is stored exactly as extracted. Every read recomputes all three digests; a snapshot that
 * fails any of them is unusable, never repaired.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CiteproofError } from "../errors.js";
import { CodePointIndex, codePointLength, hasLoneSurrogate } from "../util/codepoints.js";
import { canonicalJson, removeAbandonedTemps, writeFileOnce } from "./files.js";
import { ACCESS_LEVELS, type AccessLevel, ORIGINS, type Origin } from "./reasons.js";
import { RUN_FILES, type RunInfo, runPath } from "./run.js";

export const SNAPSHOT_SCHEMA_VERSION = 1;

export interface PaperIds {
  pmid: string | null;
  doi: string | null;
  pmcid: string | null;
}

/** A user-supplied PDF left where it is: path relative to the run's library root. */
export interface Asset {
  path: string;
  sha256: string;
  bytes: number;
}

/** Where the text of each physical page starts in the snapshot text, in code points. */
export interface DocumentMap {
  /** sha256 of the PDF bytes the text was extracted from. */
  sha256: string;
  extractor_version: string;
  page_count: number;
  pages: { page: number; start: number }[];
}

/** A heading found while extracting, with the code point offset where its text starts. */
export interface SectionStart {
  start: number;
  title: string;
}

export interface Snapshot {
  schema_version: number;
  source_id: string;
  content_hash: string;
  metadata_hash: string;
  url: string;
  final_url: string | null;
  title: string | null;
  access: AccessLevel;
  origin: Origin;
  evidence_id: string | null;
  paper: PaperIds | null;
  asset: Asset | null;
  media_type: string;
  document: DocumentMap | null;
  sections: SectionStart[] | null;
  /** Length of text in code points. */
  length: number;
  registered_at: string;
  text: string;
}

export interface SnapshotInput {
  url: string;
  text: string;
  access: AccessLevel;
  origin: Origin;
  mediaType: string;
  finalUrl?: string | null;
  title?: string | null;
  evidenceId?: string | null;
  paper?: PaperIds | null;
  asset?: Asset | null;
  document?: DocumentMap | null;
  sections?: SectionStart[] | null;
}

export const SOURCE_ID_PATTERN = /^src-[0-9a-f]{64}$/;

export function sourceIdOf(url: string, text: string): string {
  return `src-${createHash("sha256").update(url, "utf8").update("\0").update(text, "utf8").digest("hex")}`;
}

export function textSha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

export function metadataHashOf(snapshot: Omit<Snapshot, "metadata_hash"> | Snapshot): string {
  const { text: _text, metadata_hash: _m, ...rest } = snapshot as Snapshot;
  return `sha256:${createHash("sha256").update(canonicalJson(rest), "utf8").digest("hex")}`;
}

export function snapshotPath(run: RunInfo, sourceId: string): string {
  return runPath(run, RUN_FILES.sources, `${sourceId}.json`);
}

/** Builds a snapshot record (not yet stored) from extracted text and its metadata. */
export function buildSnapshot(input: SnapshotInput, now = new Date()): Snapshot {
  if (input.url.includes("\0") || hasLoneSurrogate(input.url)) {
    throw new CiteproofError("EVIDENCE_INVALID", "the source URL holds a NUL or an unpaired surrogate");
  }
  if (hasLoneSurrogate(input.text)) {
    throw new CiteproofError(
      "EVIDENCE_INVALID",
      "the source text holds an unpaired surrogate (not valid Unicode)",
    );
  }
  if (input.text.trim().length === 0) {
    throw new CiteproofError("CONTENT_NOT_SUPPORTED", `${input.url} yields no text to register`);
  }
  if (!(ACCESS_LEVELS as readonly string[]).includes(input.access)) {
    throw new CiteproofError(
      "USAGE",
      `access ${JSON.stringify(input.access)} is not one of ${ACCESS_LEVELS.join(", ")}`,
    );
  }
  if (!(ORIGINS as readonly string[]).includes(input.origin)) {
    throw new CiteproofError(
      "USAGE",
      `origin ${JSON.stringify(input.origin)} is not one of ${ORIGINS.join(", ")}`,
    );
  }
  const body: Omit<Snapshot, "metadata_hash"> = {
    schema_version: SNAPSHOT_SCHEMA_VERSION,
    source_id: sourceIdOf(input.url, input.text),
    content_hash: `sha256:${textSha256(input.text)}`,
    url: input.url,
    final_url: input.finalUrl ?? null,
    title: input.title ?? null,
    access: input.access,
    origin: input.origin,
    evidence_id: input.evidenceId ?? null,
    paper: input.paper ?? null,
    asset: input.asset ?? null,
    media_type: input.mediaType,
    document: input.document ?? null,
    sections: input.sections ?? null,
    length: codePointLength(input.text),
    registered_at: now.toISOString(),
    text: input.text,
  };
  return { ...body, metadata_hash: metadataHashOf(body) };
}

export interface StoredSnapshot {
  snapshot: Snapshot;
  /** False when a snapshot with the same identity was already stored (registration is then a no-op). */
  created: boolean;
}

/**
 * Stores a snapshot write-once. If its identity is already stored, the stored one is verified and
 * returned unchanged: the first registration wins, and a damaged stored copy is a hard error.
 */
export function storeSnapshot(run: RunInfo, snapshot: Snapshot): StoredSnapshot {
  const path = snapshotPath(run, snapshot.source_id);
  removeAbandonedTemps(runPath(run, RUN_FILES.sources));
  const created = writeFileOnce(path, `${JSON.stringify(snapshot, null, 1)}\n`);
  if (created) return { snapshot, created };
  const existing = new SnapshotStore(run).load(snapshot.source_id);
  if (!existing.ok) throw new CiteproofError("SNAPSHOT_HASH_MISMATCH", existing.message);
  return { snapshot: existing.snapshot, created: false };
}

export type LoadedSnapshot =
  | { ok: true; snapshot: Snapshot; index: CodePointIndex }
  | { ok: false; code: "UNKNOWN_SOURCE" | "SNAPSHOT_HASH_MISMATCH"; message: string };

/** Reads and verifies snapshots, each once per store (one store per process or per operation). */
export class SnapshotStore {
  private readonly loaded = new Map<string, LoadedSnapshot>();
  /** How many snapshot files this store has read and hashed. */
  reads = 0;

  constructor(readonly run: RunInfo) {}

  load(sourceId: string): LoadedSnapshot {
    const held = this.loaded.get(sourceId);
    if (held) return held;
    const result = this.readAndVerify(sourceId);
    this.loaded.set(sourceId, result);
    return result;
  }

  /** Like load, but a failure is a thrown CiteproofError (for reads a user asked for). */
  require(sourceId: string): { snapshot: Snapshot; index: CodePointIndex } {
    const result = this.load(sourceId);
    if (result.ok) return result;
    throw new CiteproofError(
      result.code === "UNKNOWN_SOURCE" ? "SOURCE_NOT_FOUND" : "SNAPSHOT_HASH_MISMATCH",
      result.message,
    );
  }

  /** The source ids of every snapshot file in the store. */
  list(): string[] {
    let names: string[];
    try {
      names = readdirSync(runPath(this.run, RUN_FILES.sources));
    } catch {
      return [];
    }
    return names
      .filter((name) => name.endsWith(".json") && SOURCE_ID_PATTERN.test(name.slice(0, -5)))
      .map((name) => name.slice(0, -5))
      .sort();
  }

  private readAndVerify(sourceId: string): LoadedSnapshot {
    if (!SOURCE_ID_PATTERN.test(sourceId)) {
      return {
        ok: false,
        code: "UNKNOWN_SOURCE",
        message: `${JSON.stringify(sourceId)} is not a source id (src-<64 hex>)`,
      };
    }
    let raw: string;
    try {
      raw = readFileSync(join(this.run.dir, RUN_FILES.sources, `${sourceId}.json`), "utf8");
    } catch {
      return { ok: false, code: "UNKNOWN_SOURCE", message: `no snapshot ${sourceId} in this run` };
    }
    this.reads++;
    const bad = (why: string): LoadedSnapshot => ({
      ok: false,
      code: "SNAPSHOT_HASH_MISMATCH",
      message: `snapshot ${sourceId} fails verification: ${why}`,
    });
    let value: Snapshot;
    try {
      value = JSON.parse(raw) as Snapshot;
    } catch {
      return bad("the file is not valid JSON");
    }
    const shapeProblem = checkShape(value);
    if (shapeProblem) return bad(shapeProblem);
    if (value.source_id !== sourceId) return bad(`the file names source_id ${value.source_id}`);
    if (sourceIdOf(value.url, value.text) !== sourceId)
      return bad("source_id does not recompute from url and text");
    if (value.content_hash !== `sha256:${textSha256(value.text)}`)
      return bad("content_hash does not recompute from text");
    if (value.metadata_hash !== metadataHashOf(value))
      return bad("metadata_hash does not recompute from the metadata");
    const index = new CodePointIndex(value.text);
    if (index.length !== value.length) return bad("length does not match the text");
    return { ok: true, snapshot: value, index };
  }
}

function checkShape(v: Snapshot): string | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "not a snapshot object";
  if (v.schema_version !== SNAPSHOT_SCHEMA_VERSION) return `schema_version is not ${SNAPSHOT_SCHEMA_VERSION}`;
  for (const key of [
    "source_id",
    "content_hash",
    "metadata_hash",
    "url",
    "text",
    "registered_at",
    "media_type",
  ] as const) {
    if (typeof v[key] !== "string") return `${key} is not a string`;
  }
  if (!(ACCESS_LEVELS as readonly string[]).includes(v.access)) return "access is not a known level";
  if (!(ORIGINS as readonly string[]).includes(v.origin)) return "origin is not a known origin";
  if (typeof v.length !== "number") return "length is not a number";
  if (
    v.asset !== null &&
    (typeof v.asset !== "object" || typeof v.asset.path !== "string" || typeof v.asset.sha256 !== "string")
  ) {
    return "asset is malformed";
  }
  if (v.document !== null && (typeof v.document !== "object" || !Array.isArray(v.document.pages))) {
    return "document is malformed";
  }
  if (v.sections !== null && !Array.isArray(v.sections)) return "sections is malformed";
  if (v.paper !== null && typeof v.paper !== "object") return "paper is malformed";
  return undefined;
}
