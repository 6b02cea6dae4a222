/**
 * On-disk extraction cache keyed by (PDF sha256, extractor version). Every file is written to a
 * temporary name and renamed into place, and carries the sha256 of its payload: an entry that
 * fails its check is deleted and rebuilt, never trusted.
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
export const CACHE_FORMAT = 2;

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

export class ExtractionCache {
  readonly dir: string;
  /** Entries found corrupt and discarded during this process (for diagnostics and tests). */
  discarded = 0;
  private dirMade = false;

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
      this.discarded++;
      rmSync(path, { force: true });
      return undefined;
    }
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
    const tmp = `${final}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
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

  readPageText(page: number): PageText | undefined {
    return unpackPageText(this.read<unknown>(`${pageName(page)}.text.bin`), page);
  }

  readPageGeometry(page: number): PageGeometry | undefined {
    const value = this.read<PageGeometry>(`${pageName(page)}.geom.bin`);
    return value && value.page === page ? value : undefined;
  }

  /** Writes a page's text layer and, when given, its geometry (written first: text implies nothing about it). */
  writePage(text: PageText, geometry?: PageGeometry): void {
    if (geometry) this.write(`${pageName(text.page)}.geom.bin`, geometry);
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

function pageName(page: number): string {
  return `p${String(page).padStart(5, "0")}`;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_");
}
