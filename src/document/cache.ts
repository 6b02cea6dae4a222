/**
 * On-disk extraction cache keyed by (PDF sha256, extractor version). Every file is written to a
 * temporary name and renamed into place, and carries the sha256 of its payload: an entry that
 * fails its check is deleted and rebuilt, never trusted.
 *
 * A document read whole keeps its text layer in one file (text.bin): one read and one digest
 * instead of one per page. Pages read one at a time keep a file each; geometry always does.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { EXTRACTOR_VERSION, type PageGeometry, type PageText } from "./model.js";
import { packPageText, unpackPageText } from "./page-record.js";

export const CACHE_DIR_ENV = "CITEPROOF_CACHE_DIR";

/** Bumped whenever the stored form of an entry changes (the extractor version covers its content). */
export const CACHE_FORMAT = 3;

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
    let data: Buffer;
    try {
      data = readFileSync(path);
    } catch {
      return undefined;
    }
    try {
      if (data.length < DIGEST_BYTES) throw new Error("short");
      const payload = data.subarray(DIGEST_BYTES);
      const digest = createHash("sha256").update(payload).digest();
      if (!digest.equals(data.subarray(0, DIGEST_BYTES))) throw new Error("digest");
      return deserialize(payload) as T;
    } catch {
      this.discard(name);
      return undefined;
    }
  }

  private discard(name: string): void {
    this.discarded++;
    rmSync(join(this.dir, name), { force: true });
  }

  private write(name: string, value: unknown): void {
    const payload = serialize(value);
    const digest = createHash("sha256").update(payload).digest();
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
    if (!entry || entry.sha256 !== this.sha256 || entry.extractorVersion !== EXTRACTOR_VERSION)
      return undefined;
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
    const value = this.read<PageGeometry>(`${pageName(page)}.geom.bin`);
    return value && value.page === page ? value : undefined;
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

function unpackDocumentText(stored: unknown): PageText[] | undefined {
  if (typeof stored !== "object" || stored === null) return undefined;
  const { pageCount, pages } = stored as { pageCount?: unknown; pages?: unknown };
  if (typeof pageCount !== "number" || !Array.isArray(pages) || pages.length !== pageCount) return undefined;
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
