/**
 * The one primitive behind every file citeproof replaces whole: the content goes to a temporary name in
 * the same folder, is flushed to disk, and only then takes the real name by rename, so a reader sees the
 * old file or the new one, never a torn one. Callers decide what a failure means to their user.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** A temporary name beside `path`, unique to this process and call. Readers skip names starting with '.'. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.tmp-${process.pid}-${randomBytes(6).toString("hex")}-${basename(path)}`);
}

/** Writes all of `data` to `path` (created with `flags`, exclusive by default) and flushes it. */
export function writeAndSync(path: string, data: string | Uint8Array, flags = "wx", mode = 0o644): void {
  const fd = openSync(path, flags, mode);
  try {
    const buffer = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let offset = 0;
    while (offset < buffer.byteLength) offset += writeSync(fd, buffer, offset, buffer.byteLength - offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flushes a directory entry (a rename or link) where the platform allows it. */
export function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms refuse to open or sync a directory; the rename or link is still atomic.
  }
}

/**
 * Replaces `path` whole: temporary file, flush, rename. On failure the temporary file is removed and
 * the error from the file system is thrown as it came. The folder entry is not flushed: see `syncDir`.
 */
export function replaceFile(path: string, data: string | Uint8Array, mode = 0o644): void {
  const tmp = tempPathFor(path);
  try {
    writeAndSync(tmp, data, "wx", mode);
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}
