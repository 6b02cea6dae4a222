/**
 * On-disk extraction cache keyed by (PDF sha256, extractor version). Every file is written to a
 * temporary name and renamed into place, and carries a seal, an HMAC-SHA256 under the cache key (the
 * per-user store key, or the key a shared cache names in `$CITEPROOF_CACHE_KEY_FILE`), over the PDF's
 * sha256, the file's role (its name), the extractor version and the payload: a genuine file copied
 * from another PDF's entry or role fails its check, and so does a file rewritten by whoever can write
 * the cache but not read the key, its digests recomputed. Without a key (the default one cannot be
 * read or created) the cache is neither read nor written. Every field read back is range-checked. An entry that fails
 * is deleted (where the cache can be written) and rebuilt, never trusted; in a read-only cache it is
 * skipped and the PDF extracted again in memory.
 *
 * A document read whole keeps its text layer in one file (text.bin): a sealed table and a chunk
 * per page (chunked-file.ts), written as pages arrive and read whole or a page at a time. Pages
 * read one at a time keep a file each; geometry always does.
 */
import { createHmac, randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { deserialize, serialize } from "node:v8";
import { CiteproofError } from "../errors.js";
import { keyAt, storeKey } from "../util/store-key.js";
import { pruneIfDue, touchEntry } from "./cache-prune.js";
import {
  ChunkedFileWriter,
  type ChunkTable,
  readChunk,
  readChunkTable,
  splitChunks,
} from "./chunked-file.js";
import { EXTRACTOR_VERSION, type PageGeometry, type PageText } from "./model.js";
import { packPageText, unpackPageText } from "./page-record.js";
import { SealedJournal } from "./sealed-journal.js";

export const CACHE_DIR_ENV = "CITEPROOF_CACHE_DIR";

/** Names the key file of a cache shared between users or machines (each must read it). */
export const CACHE_KEY_FILE_ENV = "CITEPROOF_CACHE_KEY_FILE";

/**
 * The key cache files are sealed under: the file `$CITEPROOF_CACHE_KEY_FILE` names (created on first
 * use; a key it cannot give is KEY_UNAVAILABLE), else the per-user store key; undefined when that
 * cannot be read or created (a read-only home), and then the cache is not used.
 */
export function cacheKey(): Buffer | undefined {
  const named = process.env[CACHE_KEY_FILE_ENV];
  if (named) return keyAt(resolve(named), CACHE_KEY_FILE_ENV);
  try {
    return storeKey();
  } catch (error) {
    if (error instanceof CiteproofError && error.code === "KEY_UNAVAILABLE") return undefined;
    throw error;
  }
}

/** Bumped whenever the stored form of an entry changes (the extractor version covers its content). */
export const CACHE_FORMAT = 5;

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

/** The document text file being written (ExtractionCache.documentTextWriter). */
export interface DocumentTextWriter {
  add(text: PageText): void;
  /** Puts the file in place. */
  finish(): void;
  /** Drops the unfinished file. */
  abandon(): void;
}

interface DocEntry {
  sha256: string;
  pageCount: number;
  extractorVersion: string;
}

const DIGEST_BYTES = 32;
const DOCUMENT_TEXT = "text.bin";

/** Cache roots this process has written to (each checked against its bound once). */
const prunedRoots = new Set<string>();

/** Names temporary files apart: this process, a random tag drawn once, a counter. */
const TMP_TAG = `${process.pid}-${randomBytes(4).toString("hex")}`;
let tmpCounter = 0;

export class ExtractionCache {
  readonly dir: string;
  /** Entries found corrupt and discarded during this process (for diagnostics and tests). */
  discarded = 0;
  private dirMade = false;
  /** The document text file's pages once read: undefined before, null when absent, incomplete or refused. */
  private documentText: PageText[] | null | undefined;
  /** The document text file's table once read: undefined before, null when absent or refused. */
  private documentTable: ChunkTable | null | undefined;
  /** The stamp of the document text file when its table was read. */
  private documentStamp: string | undefined;
  /** The key files are sealed under; undefined when there is none (nothing is read or written). */
  private readonly key: Buffer | undefined;

  constructor(
    private readonly root: string,
    readonly sha256: string,
  ) {
    this.dir = join(root, cacheEntryPath(sha256));
    this.key = cacheKey();
    // Its last use, for the cache's bound (cache-prune.ts).
    if (this.key) touchEntry(this.dir);
  }

  /** After a file is put in place: the cache is kept under its bound (at most once an hour). */
  private written(): void {
    if (prunedRoots.has(this.root)) return;
    prunedRoots.add(this.root);
    pruneIfDue(this.root);
  }

  private read<T>(name: string): T | undefined {
    if (!this.key) return undefined;
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

  /** Seals a file to this PDF, its role and the extractor that made it, under the cache key. */
  private digest(name: string, payload: Uint8Array): Buffer {
    const binding = `citeproof-cache\0${this.sha256}\0${name}\0${EXTRACTOR_VERSION}\0${CACHE_FORMAT}\0`;
    // Without a key nothing is read or written; a seal no stored file can hold.
    if (!this.key) return randomBytes(DIGEST_BYTES);
    return createHmac("sha256", this.key).update(binding).update(payload).digest();
  }

  private discard(name: string): void {
    this.discarded++;
    try {
      rmSync(join(this.dir, name), { force: true });
    } catch {
      // A read-only cache (EROFS, EACCES): the entry stays, skipped on every read.
    }
  }

  private makeDir(): void {
    if (!this.dirMade) {
      mkdirSync(this.dir, { recursive: true });
      this.dirMade = true;
    }
  }

  private write(name: string, value: unknown): void {
    if (!this.key) return;
    const payload = serialize(value);
    const digest = this.digest(name, payload);
    this.makeDir();
    const final = join(this.dir, name);
    // Not util/atomic-file: a cache entry is rebuilt when lost, so it skips the flush that stores pay for.
    const tmp = tmpName(final);
    try {
      try {
        writeParts(tmp, [digest, payload]);
      } catch (error) {
        // The directory was removed since it was made: make it again, once.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        mkdirSync(this.dir, { recursive: true });
        writeParts(tmp, [digest, payload]);
      }
      renameSync(tmp, final);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw error;
    }
    this.written();
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

  /**
   * A page's text layer: from the document text file when it holds the page (read alone, not the
   * whole file), else from the page's own file.
   */
  readPageText(page: number): PageText | undefined {
    if (this.documentText) return this.documentText[page - 1];
    const fromDocument = this.readDocumentPage(page);
    if (fromDocument) return fromDocument;
    return unpackPageText(this.read<unknown>(`${pageName(page)}.text.bin`), page);
  }

  /** Whether a page's text layer is stored (in the document text file or its own file), unread. */
  storesPage(page: number): boolean {
    if (!this.key) return false;
    if (this.documentText) return page >= 1 && page <= this.documentText.length;
    this.documentTable ??=
      readChunkTable(join(this.dir, DOCUMENT_TEXT), this.documentSeal, MAX_CACHED_PAGES) ?? null;
    const table = this.documentTable;
    if (table && page >= 1 && page <= table.count && table.lengths[page - 1] > 0) return true;
    return existsSync(join(this.dir, `${pageName(page)}.text.bin`));
  }

  /** A page of the document text file, its table read once; undefined when the file lacks it or fails. */
  private readDocumentPage(page: number): PageText | undefined {
    if (!this.key) return undefined;
    const path = join(this.dir, DOCUMENT_TEXT);
    // A file replaced since its table was read (another process stored it again) is read afresh, once.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (this.documentTable === undefined) {
        // Taken before the table: a file replaced after it is named by another stamp next time.
        this.documentStamp = fileStamp(path);
        this.documentTable = readChunkTable(path, this.documentSeal, MAX_CACHED_PAGES) ?? null;
      }
      const table = this.documentTable;
      if (!table || page < 1 || page > table.count) return undefined;
      const known = this.documentStamp && `${path}\0${this.documentStamp}\0${page}`;
      const remembered = known ? recentPages.get(known) : undefined;
      if (remembered) return remembered;
      const chunk = readChunk(path, table, page - 1);
      if (chunk === undefined) return undefined;
      const text = chunk && unpackPageText(deserializeQuietly(chunk), page);
      if (text) {
        if (known) recentPages.add(known, text);
        return text;
      }
      this.documentTable = undefined;
    }
    this.discard(DOCUMENT_TEXT);
    this.documentTable = null;
    return undefined;
  }

  private readonly documentSeal = (table: Uint8Array) => this.digest(DOCUMENT_TEXT, table);

  /**
   * Every page's text layer from the document text file, or undefined when it is absent, lacks a
   * page (one the engine could not read) or is refused.
   */
  readDocumentText(): PageText[] | undefined {
    if (!this.key) return undefined;
    if (this.documentText === undefined) {
      let data: Buffer | undefined;
      try {
        data = readRegular(join(this.dir, DOCUMENT_TEXT));
      } catch {
        data = undefined;
      }
      const split = data && splitChunks(data, this.documentSeal, MAX_CACHED_PAGES);
      const pages = split ? unpackDocumentText(split.chunks) : undefined;
      this.documentText = pages ?? null;
      // A file that lacks a page is kept: its other pages are read one at a time.
      if (data !== undefined && (!split || pages === null)) this.discard(DOCUMENT_TEXT);
    }
    return this.documentText ?? undefined;
  }

  /** Writes every page's text layer as one file (pages[i] is page i + 1). */
  writeDocumentText(pages: PageText[]): void {
    const writer = this.documentTextWriter(pages.length);
    try {
      for (const text of pages) writer.add(text);
      writer.finish();
    } catch (error) {
      writer.abandon();
      throw error;
    }
    this.documentText = pages;
  }

  /**
   * Writes the document text file a page at a time, in any order, as pages arrive; a page never
   * added is left out (a later read extracts it). Nothing is in place until `finish`.
   */
  documentTextWriter(pageCount: number): DocumentTextWriter {
    if (!this.key) return { add: () => {}, finish: () => {}, abandon: () => {} };
    this.makeDir();
    const final = join(this.dir, DOCUMENT_TEXT);
    const tmp = tmpName(final);
    let file: ChunkedFileWriter;
    try {
      file = new ChunkedFileWriter(tmp, pageCount, this.documentSeal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      // The directory was removed since it was made: make it again, once.
      mkdirSync(this.dir, { recursive: true });
      file = new ChunkedFileWriter(tmp, pageCount, this.documentSeal);
    }
    return {
      add: (text) => file.add(text.page - 1, serialize(packPageText(text))),
      finish: () => {
        try {
          file.finish();
          renameSync(tmp, final);
        } catch (error) {
          rmSync(tmp, { force: true });
          throw error;
        }
        this.documentText = undefined;
        this.documentTable = undefined;
        this.written();
      },
      abandon: () => {
        file.abandon();
        rmSync(tmp, { force: true });
      },
    };
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

  /**
   * An append-only journal of values derived from the document (sealed-journal.ts), its frames sealed
   * like every file here; undefined when nothing is read or written (no cache key).
   */
  journal(name: string): SealedJournal | undefined {
    if (!this.key) return undefined;
    const role = `jrn-${safeName(name)}`;
    return new SealedJournal(
      this.dir,
      role,
      (payload) => this.digest(role, payload),
      () => {
        mkdirSync(this.dir, { recursive: true });
        this.dirMade = true;
      },
    );
  }

  /**
   * What identifies a record's file as it stands (device, inode, size, change time in nanoseconds, which
   * no writer can set back), or undefined when it is absent or nothing is read (no cache key).
   */
  recordStamp(name: string): string | undefined {
    return this.key ? fileStamp(join(this.dir, `rec-${safeName(name)}.bin`)) : undefined;
  }
}

/**
 * What identifies a file as it stands (device, inode, size, change and modification times in
 * nanoseconds; no writer can set the change time back), or undefined when it is absent.
 */
function fileStamp(path: string): string | undefined {
  try {
    const s = statSync(path, { bigint: true });
    return s.isFile() ? `${s.dev}:${s.ino}:${s.size}:${s.ctimeNs}:${s.mtimeNs}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Pages of document text files this process read and unsealed, by file, stamp and page, the least
 * recently used dropped past RECENT_PAGE_BYTES: a resident server's calls on one paper read each page
 * once while its file stands. A PageText is never changed once made, so one object serves every call.
 */
const RECENT_PAGE_BYTES = 64 * 2 ** 20;

class RecentPages {
  private readonly pages = new Map<string, { text: PageText; bytes: number }>();
  private bytes = 0;

  get(key: string): PageText | undefined {
    const hit = this.pages.get(key);
    if (!hit) return undefined;
    this.pages.delete(key);
    this.pages.set(key, hit);
    return hit.text;
  }

  add(key: string, text: PageText): void {
    // UTF-16 text, and each line's range and box.
    const bytes = 256 + 2 * text.text.length + 64 * text.lines.length;
    if (bytes > RECENT_PAGE_BYTES) return;
    const old = this.pages.get(key);
    if (old) {
      this.pages.delete(key);
      this.bytes -= old.bytes;
    }
    this.pages.set(key, { text, bytes });
    this.bytes += bytes;
    for (const [k, v] of this.pages) {
      if (this.bytes <= RECENT_PAGE_BYTES) break;
      this.pages.delete(k);
      this.bytes -= v.bytes;
    }
  }
}

const recentPages = new RecentPages();

function tmpName(final: string): string {
  return `${final}.tmp-${TMP_TAG}-${tmpCounter++}`;
}

/** Writes a new file from its parts (a large payload is not copied into one buffer with its digest). */
function writeParts(path: string, parts: Uint8Array[]): void {
  const fd = openSync(path, "wx");
  try {
    for (const part of parts) {
      let done = 0;
      while (done < part.length) done += writeSync(fd, part, done, part.length - done);
    }
  } finally {
    closeSync(fd);
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

/** Every page of the document text file's chunks; undefined when one is missing, null when one is refused. */
function unpackDocumentText(chunks: (Buffer | undefined)[]): PageText[] | undefined | null {
  const out: PageText[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i];
    if (chunk === undefined) return undefined;
    const page = unpackPageText(deserializeQuietly(chunk), i + 1);
    if (!page) return null;
    out.push(page);
  }
  return out;
}

function deserializeQuietly(data: Uint8Array): unknown {
  try {
    return deserialize(data);
  } catch {
    return undefined;
  }
}

function pageName(page: number): string {
  return `p${String(page).padStart(5, "0")}`;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_");
}
