/**
 * A review session on disk: a folder holding the bound original (a copy of its bytes and its
 * stored extraction record), the claim pool, and the revisions stored beside the original.
 *
 *   session.json            name, the original and the revisions (their sha256 and record hashes)
 *   original.pdf            the original's bytes (a flow source: original.<its kind>, e.g. original.docx)
 *   extraction.json         the original's extraction record (a flow source: document.json, its parsed
 *                           document; claims on it are checked against that record)
 *   pool.jsonl              one claim per line
 *   revisions/<id>/         revision.pdf and extraction.json of a revision (a flow original's revision:
 *                           revision.<its kind> and document.json)
 *
 * The original is never replaced: a different PDF given as the original is refused.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { CheckContext } from "../checks/verify.js";
import { FLOW_KINDS, FLOW_READER_VERSION, type FlowDocument, type FlowKind } from "../document/flow/model.js";
import { validFlowDocument } from "../document/flow/valid.js";
import type { OpenedDocument } from "../document/open.js";
import { CiteproofError } from "../errors.js";
import type { AnchorsOptions } from "../layout/anchors.js";
import { sha256Hex } from "../source/file.js";
import { isObject } from "../util/json-object.js";
import {
  contextFromExtraction,
  extractionRecord,
  READABLE_EXTRACTION_SCHEMAS,
  type StoredExtraction,
  validateExtraction,
} from "./extraction-record.js";
import { corrupt, readJsonFile, syncDir, writeAtomic, writeJsonFile } from "./files.js";
import { withSessionLock } from "./lock.js";

export const DEFAULT_SESSIONS_DIR = join(".citeproof", "sessions");
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface StoredPdf {
  /** A flow source's kind; absent for a PDF. */
  kind?: FlowKind;
  sha256: string;
  bytes: number;
  pages: number;
  /** The copy's path inside the session folder. */
  file: string;
  /** Where the PDF was read from when it was stored. */
  source: string;
  /** The stored extraction record: its file, the sha256 of its payload, and its versions. */
  extraction: { file: string; sha256: string; schemaVersion: number; extractorVersion: string };
}

export interface StoredRevision extends StoredPdf {
  id: string;
  stored: string;
}

export interface SessionInfo {
  name: string;
  created: string;
  original: StoredPdf;
  revisions: StoredRevision[];
}

export interface Session {
  dir: string;
  info: SessionInfo;
}

/** The session folder: `chosen` when given, else `.citeproof/sessions/<name>`, from `base` (the working directory). */
export function sessionDir(name: string, chosen?: string, base = process.cwd()): string {
  if (chosen !== undefined) return resolve(base, chosen);
  checkName(name);
  return resolve(base, DEFAULT_SESSIONS_DIR, name);
}

export function checkName(name: string): void {
  if (!NAME.test(name)) {
    throw new CiteproofError(
      "USAGE",
      `session name ${JSON.stringify(name)} must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
}

/** A flow source bound as an original: its bytes and its parsed document. */
export interface FlowOriginal {
  kind: FlowKind;
  source: { bytes: Uint8Array; sha256: string; origin: string };
  doc: FlowDocument;
}

/** Schema of a flow original's stored document record. */
export const FLOW_RECORD_SCHEMA = 1;

export interface CreateResult {
  session: Session;
  created: boolean;
}

/**
 * Binds `doc` as the original of a new session in `dir`. A session already there keeps its
 * original: the same PDF again is no change; a different one is refused.
 */
export async function createSession(
  dir: string,
  name: string,
  doc: OpenedDocument | FlowOriginal,
  options: AnchorsOptions = {},
): Promise<CreateResult> {
  checkName(name);
  if (existsSync(join(dir, "session.json"))) {
    const session = openSession(dir);
    assertOriginal(session, originalSha256(doc));
    return { session, created: false };
  }
  if (existsSync(dir) && !isEmptyDir(dir)) {
    throw new CiteproofError(
      "SESSION_EXISTS",
      `${dir} exists and is not a session; choose another name or folder`,
    );
  }
  const parent = dirname(dir);
  mkdirSync(parent, { recursive: true });
  // Built whole in a temporary folder, then renamed into place: a session is never half-made.
  const tmp = join(parent, `.${name}.new-${process.pid}-${randomBytes(4).toString("hex")}`);
  mkdirSync(tmp);
  try {
    const original =
      "doc" in doc
        ? storeFlow(tmp, doc)
        : await storePdf(tmp, "original.pdf", "extraction.json", doc, options);
    const info: SessionInfo = { name, created: new Date().toISOString(), original, revisions: [] };
    writeJsonFile(join(tmp, "session.json"), "session", info);
    renameSync(tmp, dir);
    syncDir(parent);
    return { session: { dir, info }, created: true };
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    if (
      (error as NodeJS.ErrnoException)?.code === "ENOTEMPTY" ||
      (error as NodeJS.ErrnoException)?.code === "EEXIST"
    ) {
      // Another process made the session first: answer as if it had been there.
      const session = openSession(dir);
      assertOriginal(session, originalSha256(doc));
      return { session, created: false };
    }
    throw error;
  }
}

/** Opens a session, checking session.json's envelope, hash and shape. */
export function openSession(dir: string): Session {
  if (!existsSync(join(dir, "session.json"))) {
    throw new CiteproofError(
      "SESSION_NOT_FOUND",
      `no session at ${dir} (start one with: citeproof session new <name> <pdf>)`,
    );
  }
  const { payload } = readJsonFile(join(dir, "session.json"), "session");
  const session = { dir, info: validateInfo(payload, join(dir, "session.json")) };
  // The original's bytes are hashed again on every open: a replaced original.pdf is refused.
  readStoredPdf(session, session.info.original);
  return session;
}

/** Refuses a PDF other than the session's original. */
export function assertOriginal(session: Session, sha256: string): void {
  const bound = session.info.original.sha256;
  if (sha256 === bound) return;
  throw new CiteproofError(
    "ORIGINAL_MISMATCH",
    `session ${session.info.name} is bound to an original with sha256 ${bound.slice(0, 12)}; this PDF (sha256 ${sha256.slice(0, 12)}) is a different file and never replaces it: store it as a revision (citeproof session revise ${session.info.name} <pdf>) or start a new session`,
    { bound, given: sha256 },
  );
}

/** Reads a stored extraction record, checking it against what session.json recorded for it. */
export function loadExtraction(session: Session, pdf: StoredPdf): StoredExtraction {
  const path = join(session.dir, pdf.extraction.file);
  const { payload, schema, sha256 } = readJsonFile(path, "extraction", READABLE_EXTRACTION_SCHEMAS);
  if (sha256 !== pdf.extraction.sha256)
    throw corrupt(path, "is not the extraction record session.json names");
  const record = validateExtraction(payload, schema, path);
  if (record.sha256 !== pdf.sha256) throw corrupt(path, "belongs to a different PDF");
  return record;
}

export function originalContext(session: Session): { record: StoredExtraction; context: CheckContext } {
  const record = loadExtraction(session, session.info.original);
  return { record, context: contextFromExtraction(record) };
}

function originalSha256(doc: OpenedDocument | FlowOriginal): string {
  return "doc" in doc ? doc.source.sha256 : doc.sha256;
}

/** The file name a flow original's bytes are stored under. */
const FLOW_EXTENSIONS: Record<FlowKind, string> = {
  html: "html",
  xhtml: "xhtml",
  epub: "epub",
  docx: "docx",
  odt: "odt",
  jats: "nxml",
  markdown: "md",
  text: "txt",
};

function storeFlow(dir: string, original: FlowOriginal, name = "original"): StoredPdf {
  const file = `${name}.${FLOW_EXTENSIONS[original.kind]}`;
  writeAtomic(join(dir, file), original.source.bytes);
  const sha256 = writeJsonFile(join(dir, "document.json"), "extraction", original.doc, FLOW_RECORD_SCHEMA);
  return {
    kind: original.kind,
    sha256: original.source.sha256,
    bytes: original.source.bytes.byteLength,
    pages: 0,
    file,
    source: original.source.origin,
    extraction: {
      file: "document.json",
      sha256,
      schemaVersion: FLOW_RECORD_SCHEMA,
      extractorVersion: `flow-v${FLOW_READER_VERSION}`,
    },
  };
}

/**
 * The parsed document of a flow original (or of a flow revision), checked against what session.json
 * recorded for it.
 */
export function loadFlowDocument(session: Session, stored: StoredPdf = session.info.original): FlowDocument {
  const path = join(session.dir, stored.extraction.file);
  const { payload, sha256 } = readJsonFile(path, "extraction", [FLOW_RECORD_SCHEMA]);
  if (sha256 !== stored.extraction.sha256)
    throw corrupt(path, "is not the document record session.json names");
  if (!validFlowDocument(payload, stored.sha256))
    throw corrupt(
      path,
      "is not the parsed document of the file it was stored for (or another reader version made it)",
    );
  return payload;
}

/**
 * Refuses a revision of another family than the original: a PDF beside a flow original, or a flow
 * source beside a PDF original (pages and sections are not compared with each other).
 */
function assertSameFamily(session: Session, doc: OpenedDocument | FlowOriginal): void {
  const original = session.info.original.kind;
  const given = "doc" in doc ? doc.kind : undefined;
  if ((original === undefined) === (given === undefined)) return;
  const name = (kind: FlowKind | undefined) => (kind === undefined ? "a PDF" : `a flow source (${kind})`);
  throw new CiteproofError(
    "CONTENT_NOT_SUPPORTED",
    `session ${session.info.name}'s original is ${name(original)}; a revision must be one too, and this file is ${name(given)}`,
    { kind: given ?? "pdf" },
  );
}

/** Reads a stored PDF's bytes, refusing them unless they hash to the recorded sha256. */
export function readStoredPdf(session: Session, pdf: StoredPdf): Uint8Array {
  const path = join(session.dir, pdf.file);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    throw corrupt(path, "is missing or unreadable");
  }
  if (sha256Hex(bytes) !== pdf.sha256) throw corrupt(path, "fails its sha256 check");
  return bytes;
}

/**
 * Stores a revision beside the original, under the session lock. The original itself is refused;
 * a PDF already stored as a revision is answered with that revision.
 */
export async function addRevision(
  session: Session,
  doc: OpenedDocument | FlowOriginal,
  options: AnchorsOptions = {},
): Promise<{ revision: StoredRevision; created: boolean }> {
  assertSameFamily(session, doc);
  const sha256 = originalSha256(doc);
  if (sha256 === session.info.original.sha256) {
    throw new CiteproofError(
      "USAGE",
      `this file is the original of session ${session.info.name}; a revision must be a different file`,
    );
  }
  return withSessionLock(session.dir, async () => {
    const current = openSession(session.dir);
    const existing = current.info.revisions.find((r) => r.sha256 === sha256);
    if (existing) {
      session.info = current.info;
      return { revision: existing, created: false };
    }
    const id = `r${current.info.revisions.length + 1}`;
    const folder = join("revisions", id);
    const tmp = join(session.dir, "revisions", `.${id}.new-${process.pid}`);
    mkdirSync(tmp, { recursive: true });
    let stored: StoredPdf;
    try {
      stored =
        "doc" in doc
          ? storeFlow(tmp, doc, "revision")
          : await storePdf(tmp, "revision.pdf", "extraction.json", doc, options);
      rmSync(join(session.dir, folder), { recursive: true, force: true });
      renameSync(tmp, join(session.dir, folder));
    } catch (error) {
      rmSync(tmp, { recursive: true, force: true });
      throw error;
    }
    const revision: StoredRevision = {
      ...stored,
      id,
      stored: new Date().toISOString(),
      file: join(folder, stored.file),
      extraction: { ...stored.extraction, file: join(folder, stored.extraction.file) },
    };
    const info: SessionInfo = { ...current.info, revisions: [...current.info.revisions, revision] };
    writeJsonFile(join(session.dir, "session.json"), "session", info);
    session.info = info;
    return { revision, created: true };
  });
}

export function findRevision(session: Session, id?: string): StoredRevision {
  const revisions = session.info.revisions;
  if (revisions.length === 0) {
    throw new CiteproofError(
      "USAGE",
      `session ${session.info.name} holds no revision; store one first (citeproof session revise ${session.info.name} <pdf>)`,
    );
  }
  if (id === undefined) return revisions[revisions.length - 1];
  const found = revisions.find((r) => r.id === id);
  if (!found) {
    throw new CiteproofError(
      "USAGE",
      `session ${session.info.name} holds no revision ${JSON.stringify(id)} (it holds ${revisions.map((r) => r.id).join(", ")})`,
    );
  }
  return found;
}

async function storePdf(
  dir: string,
  pdfName: string,
  recordName: string,
  doc: OpenedDocument,
  options: AnchorsOptions,
): Promise<StoredPdf> {
  writeAtomic(join(dir, pdfName), doc.source.bytes);
  const record = await extractionRecord(doc, options);
  const sha256 = writeJsonFile(join(dir, recordName), "extraction", record, record.schemaVersion);
  return {
    sha256: doc.sha256,
    bytes: doc.bytes,
    pages: doc.pageCount,
    file: pdfName,
    source: doc.source.origin,
    extraction: {
      file: recordName,
      sha256,
      schemaVersion: record.schemaVersion,
      extractorVersion: record.extractorVersion,
    },
  };
}

function validateInfo(value: unknown, where: string): SessionInfo {
  const bad = (problem: string) => corrupt(where, problem);
  if (!isObject(value)) throw bad("holds no session record");
  if (typeof value.name !== "string" || typeof value.created !== "string")
    throw bad('lacks "name" or "created"');
  checkPdf(value.original, "original", bad);
  if (!Array.isArray(value.revisions)) throw bad('lacks "revisions"');
  value.revisions.forEach((r, i) => {
    checkPdf(r, `revision ${i + 1}`, bad);
    if (typeof (r as Record<string, unknown>).id !== "string") throw bad(`revision ${i + 1} lacks its "id"`);
  });
  return value as unknown as SessionInfo;
}

function checkPdf(value: unknown, what: string, bad: (problem: string) => CiteproofError): void {
  if (!isObject(value)) throw bad(`lacks the ${what}`);
  if (value.kind !== undefined && !(FLOW_KINDS as readonly unknown[]).includes(value.kind))
    throw bad(`${what} is of an unknown kind`);
  if (typeof value.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(value.sha256))
    throw bad(`${what} lacks its sha256`);
  if (typeof value.pages !== "number" || typeof value.file !== "string")
    throw bad(`${what} lacks "pages" or "file"`);
  const x = value.extraction;
  if (
    !isObject(x) ||
    typeof x.file !== "string" ||
    typeof x.sha256 !== "string" ||
    typeof x.schemaVersion !== "number"
  ) {
    throw bad(`${what} lacks its extraction record`);
  }
}

function isEmptyDir(dir: string): boolean {
  try {
    return statSync(dir).isDirectory() && readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}
