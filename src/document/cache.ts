/**
 * On-disk extraction cache keyed by (PDF sha256, extractor version). Every file is written to a
 * temporary name and renamed into place, and carries a sha256 over the PDF's sha256, the file's
 * role (its name), the extractor version and the payload, so a genuine file copied from another
 * PDF's entry or role fails its check. Every field read back is range-checked. An entry that fails
 * is deleted (where the cache can be written) and rebuilt, never trusted; in a read-only cache it is
 * skipped and the PDF extracted again in memory.
 *
 * A document read whole keeps its text layer in one file (text.bin): one read and one digest
 * instead of one per page. Pages read one at a time keep a file each; geometry always does.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { EXTRACTOR_VERSION, type PageGeometry, type PageText } from "./model.js";
import { packPageText, unpackPageText } from "./page-record.js";

export const CACHE_DIR_ENV = "CITEPROOF_CACHE_DIR";

/** Bumped whenever the stored form of an entry changes (the extractor version covers its content). */
export const CACHE_FORMAT = 4;

/** More pages than any real PDF holds: a page count past it is refused as damage, never allocated. */
export const MAX_CACHED_PAGES = 1_000_000;

/** The directory, under the cache root, of one document's entries. */
export function cacheEntryPath(sha256: string): string {
  return join(sha256.slice(0, 2), sha256, `x${EXTRACTOR_VERSION}-f${CACHE_FORMAT}`);
}

export function defaultCacheDir(): string {
  const fromEnv = process.env[CACHE_DIR_ENV];
  if (fromEnv) return fromEnv;
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && xdg.length > 0 ? xdg : join(homedir(), ".cache"), "citeproof");
}

interface DocEntry {
  sha256: string;
  pageCount: number;
  extractorVersion: string;
}

const DIGEST_BYTES = 32;
const DOCUMENT_TEXT = "text.bin";

/** Names temporary files apart: this process, a random tag drawn once, a counter. */
const TMP_TAG = `${process.pid}-${randomBytes(4).toString("hex")}`;
let tmpCounter = 0;

export class ExtractionCache {
  readonly dir: string;
  /** Entries found corrupt and discarded during this process (for diagnostics and tests). */
  discarded = 0;
  private dirMade = false;
  /** The document text file's pages once read: undefined before, null when absent or refused. */
  private documentText: PageText[] | null | undefined;

  constructor(
    root: string,
    readonly sha256: string,
  ) {
    this.dir = join(root, cacheEntryPath(sha256));
  }

  private read<T>(name: string): T | undefined {
    const path = join(this.dir, name);
    let data: Buffer | undefined;
    try {
      data = readRegular(path);
    } catch {
      return undefined;
    }
    try {
      if (data === undefined || data.length < DIGEST_BYTES) throw new Error("not an entry");
      const payload = data.subarray(DIGEST_BYTES);
      if (!this.digest(name, payload).equals(data.subarray(0, DIGEST_BYTES))) throw new Error("digest");
      return deserialize(payload) as T;
    } catch {
      this.discard(name);
      return undefined;
    }
  }

  /** Binds a file to this PDF, its role and the extractor that made it. */
  private digest(name: string, payload: Uint8Array): Buffer {
    const binding = `citeproof-cache\0${this.sha256}\0${name}\0${EXTRACTOR_VERSION}\0${CACHE_FORMAT}\0`;
    return createHash("sha256").update(binding).update(payload).digest();
  }

  private discard(name: string): void {
    this.discarded++;
    try {
      rmSync(join(this.dir, name), { force: true });
    } catch {
      // A read-only cache (EROFS, EACCES): the entry stays, skipped on every read.
    }
  }

  private write(name: string, value: unknown): void {
    const payload = serialize(value);
    const digest = this.digest(name, payload);
    if (!this.dirMade) {
      mkdirSync(this.dir, { recursive: true });
      this.dirMade = true;
    }
    const final = join(this.dir, name);
    // Not util/atomic-file: a cache entry is rebuilt when lost, so it skips the flush that stores pay for.
    const tmp = `${final}.tmp-${TMP_TAG}-${tmpCounter++}`;
    const data = Buffer.concat([digest, payload]);
    try {
      try {
        writeFileSync(tmp, data);
      } catch (error) {
        // The directory was removed since it was made: make it again, once.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        mkdirSync(this.dir, { recursive: true });
        writeFileSync(tmp, data);
      }
      renameSync(tmp, final);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
  }

  readDoc(): DocEntry | undefined {
    const entry = this.read<DocEntry>("doc.bin");
    if (entry === undefined) return undefined;
    const ok =
      typeof entry === "object" &&
      entry !== null &&
      entry.sha256 === this.sha256 &&
      entry.extractorVersion === EXTRACTOR_VERSION &&
      Number.isSafeInteger(entry.pageCount) &&
      entry.pageCount >= 0 &&
      entry.pageCount <= MAX_CACHED_PAGES;
    if (!ok) {
      this.discard("doc.bin");
      return undefined;
    }
    return entry;
  }

  writeDoc(pageCount: number): void {
    this.write("doc.bin", { sha256: this.sha256, pageCount, extractorVersion: EXTRACTOR_VERSION });
  }

  /** A page's text layer: from the document text file when there is one, else from the page's own file. */
  readPageText(page: number): PageText | undefined {
    const whole = this.readDocumentText();
    if (whole) return whole[page - 1];
    return unpackPageText(this.read<unknown>(`${pageName(page)}.text.bin`), page);
  }

  /** Every page's text layer from the document text file, or undefined when it is absent or refused. */
  readDocumentText(): PageText[] | undefined {
    if (this.documentText === undefined) {
      const stored = this.read<unknown>(DOCUMENT_TEXT);
      this.documentText = stored === undefined ? null : (unpackDocumentText(stored) ?? null);
      if (stored !== undefined && this.documentText === null) this.discard(DOCUMENT_TEXT);
    }
    return this.documentText ?? undefined;
  }

  /** Writes every page's text layer as one file (pages[i] is page i + 1). */
  writeDocumentText(pages: PageText[]): void {
    this.write(DOCUMENT_TEXT, { pageCount: pages.length, pages: pages.map(packPageText) });
    this.documentText = pages;
  }

  /** Writes a page's geometry. */
  writePageGeometry(geometry: PageGeometry): void {
    this.write(`${pageName(geometry.page)}.geom.bin`, geometry);
  }

  readPageGeometry(page: number): PageGeometry | undefined {
    const name = `${pageName(page)}.geom.bin`;
    const value = this.read<PageGeometry>(name);
    if (value === undefined) return undefined;
    if (validGeometry(value, page)) return value;
    this.discard(name);
    return undefined;
  }

  /** Writes one page's text layer in a file of its own (a document not read whole). */
  writePageText(text: PageText): void {
    this.write(`${pageName(text.page)}.text.bin`, packPageText(text));
  }

  /** A named record derived from the document by a higher layer (anchors, for instance). */
  readRecord<T>(name: string): T | undefined {
    return this.read<T>(`rec-${safeName(name)}.bin`);
  }

  writeRecord(name: string, value: unknown): void {
    this.write(`rec-${safeName(name)}.bin`, value);
  }
}

/** Reads a cache file only when it is a regular file (never waits on a FIFO put in its place). */
function readRegular(path: string): Buffer | undefined {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd) : undefined;
  } finally {
    closeSync(fd);
  }
}

/** The arrays of a page's geometry: the right types, one entry (or box) per unit of the same count. */
function validGeometry(value: unknown, page: number): value is PageGeometry {
  if (typeof value !== "object" || value === null) return false;
  const g = value as PageGeometry;
  if (g.page !== page) return false;
  const units = g.flags instanceof Uint8Array ? g.flags.length : -1;
  return (
    units >= 0 &&
    g.glyphBoxes instanceof Float32Array &&
    g.glyphBoxes.length === units * 4 &&
    g.looseBoxes instanceof Float32Array &&
    g.looseBoxes.length === units * 4 &&
    g.origins instanceof Float32Array &&
    g.origins.length === units * 2 &&
    g.fontSizes instanceof Float32Array &&
    g.fontSizes.length === units &&
    g.fontIndex instanceof Int16Array &&
    g.fontIndex.length === units
  );
}

function unpackDocumentText(stored: unknown): PageText[] | undefined {
  if (typeof stored !== "object" || stored === null) return undefined;
  const { pageCount, pages } = stored as { pageCount?: unknown; pages?: unknown };
  if (!Number.isSafeInteger(pageCount) || !Array.isArray(pages) || pages.length !== pageCount)
    return undefined;
  const out: PageText[] = [];
  for (let i = 0; i < pages.length; i++) {
    const page = unpackPageText(pages[i], i + 1);
    if (!page) return undefined;
    out.push(page);
  }
  return out;
}

function pageName(page: number): string {
  return `p${String(page).padStart(5, "0")}`;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_");
}
