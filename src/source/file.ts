import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { CiteproofError } from "../errors.js";
import { openedRealPath } from "./opened-path.js";

export const DEFAULT_MAX_PDF_BYTES = 256 * 1024 * 1024;

export interface PdfBytes {
  bytes: Uint8Array;
  sha256: string;
  /** Where the bytes came from: a path or a URL. */
  origin: string;
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Checks the PDF header: `%PDF-` within the first 1024 bytes, as readers accept. */
export function assertPdfHeader(bytes: Uint8Array, origin: string): void {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  if (!head.includes("%PDF-")) {
    throw new CiteproofError("NOT_PDF", `${origin} is not a PDF (no %PDF- header)`);
  }
}

export interface ReadFileOptions {
  maxBytes: number;
  /** What the file is, for messages ("evidence file"); the path alone when absent. */
  what?: string;
  /**
   * Called with the real path of the file actually opened (taken from the descriptor, so a path
   * swapped after the check cannot redirect the read) before a byte is read; throws to refuse it.
   */
  admit?: (realPath: string) => void;
}

export interface FileRead {
  bytes: Uint8Array;
  /** The real path of the file read, from its open descriptor. */
  realPath: string;
}

// Non-blocking so that opening a FIFO never waits for a writer; the file is refused by type before
// it is read. A terminal never becomes the controlling one.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Reads a local file once through one descriptor: open (non-blocking), check what was opened (a
 * regular file, its real path admitted, its size within the limit), then read only through that
 * descriptor. Every check is on the opened file, never on the path again.
 */
export async function readFileOnce(path: string, options: ReadFileOptions): Promise<FileRead> {
  const shown = options.what ? `${options.what} ${path}` : path;
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    throw fileError(error, shown);
  }
  try {
    const info = await handle.stat().catch((error) => {
      throw fileError(error, shown);
    });
    const realPath = openedRealPath(handle.fd, path, info);
    options.admit?.(realPath);
    if (!info.isFile()) {
      const kind = fileKind(info);
      throw new CiteproofError("FILE_UNREADABLE", `${shown} is ${kind}, not a regular file`);
    }
    if (info.size > options.maxBytes) {
      throw new CiteproofError(
        "FILE_TOO_LARGE",
        `${shown} is ${info.size} bytes, over the limit of ${options.maxBytes} bytes`,
        { option: "max_bytes", limit: options.maxBytes },
      );
    }
    const buffer = Buffer.alloc(Number(info.size));
    let offset = 0;
    try {
      while (offset < buffer.length) {
        const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
      }
    } catch (error) {
      throw fileError(error, shown);
    }
    return { bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, offset), realPath };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Opens a local file for reading the way `readFileOnce` does (non-blocking, checked by descriptor:
 * admitted real path, regular file) and returns the descriptor, for callers that stream it.
 */
export function openRegularFileSync(path: string, admit?: (realPath: string) => void, what?: string): number {
  const shown = what ? `${what} ${path}` : path;
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    throw fileError(error, shown);
  }
  try {
    const info = fstatSync(fd);
    admit?.(openedRealPath(fd, path, info));
    if (!info.isFile()) {
      const kind = fileKind(info);
      throw new CiteproofError("FILE_UNREADABLE", `${shown} is ${kind}, not a regular file`);
    }
    return fd;
  } catch (error) {
    closeSync(fd);
    throw fileError(error, shown);
  }
}

/** The largest text input read (an evidence file, a draft, a request), in bytes. */
export const MAX_TEXT_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * Reads a whole local file the way `openRegularFileSync` opens it (stdin for "-"), at most `maxBytes`:
 * past them FILE_TOO_LARGE, before more than the limit is held.
 */
export function readRegularFileSync(path: string, what: string, maxBytes = MAX_TEXT_INPUT_BYTES): Buffer {
  const fd = path === "-" ? 0 : openRegularFileSync(path, undefined, what);
  const shown = path === "-" ? `${what} on stdin` : `${what} ${path}`;
  try {
    return readAtMost(fd, maxBytes, shown);
  } catch (error) {
    throw fileError(error, shown);
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

function readAtMost(fd: number, maxBytes: number, shown: string): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(1 << 20, maxBytes + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > maxBytes)
      throw new CiteproofError("FILE_TOO_LARGE", `${shown} is over the limit of ${maxBytes} bytes`, {
        limit: maxBytes,
      });
  }
}

/** Reads a local PDF once (see `readFileOnce`), checks its header, and hashes the bytes. */
export async function readPdfFile(
  path: string,
  maxBytes = DEFAULT_MAX_PDF_BYTES,
  admit?: (realPath: string) => void,
): Promise<PdfBytes> {
  return asPdf(await readSourceFile(path, maxBytes, admit));
}

/** The source, once its bytes are seen to be a PDF's (NOT_PDF otherwise). */
export function asPdf(source: PdfBytes): PdfBytes {
  if (source.bytes.byteLength === 0) throw new CiteproofError("NOT_PDF", `${source.origin} is empty`);
  assertPdfHeader(source.bytes, source.origin);
  return source;
}

/** Reads a local source of any kind once (see `readFileOnce`) and hashes the bytes; its kind is not looked at. */
export async function readSourceFile(
  path: string,
  maxBytes = DEFAULT_MAX_PDF_BYTES,
  admit?: (realPath: string) => void,
): Promise<PdfBytes> {
  const { bytes } = await readFileOnce(path, { maxBytes, admit });
  return { bytes, sha256: sha256Hex(bytes), origin: path };
}

function fileKind(info: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a FIFO";
  if (info.isSocket()) return "a socket";
  return "a device";
}

function fileError(error: unknown, shown: string): CiteproofError {
  if (error instanceof CiteproofError) return error;
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "ENOENT" || code === "ENOTDIR")
    return new CiteproofError("FILE_NOT_FOUND", `${shown} does not exist`);
  if (code === "EACCES" || code === "EPERM") {
    return new CiteproofError("FILE_UNREADABLE", `${shown} cannot be read (permission denied)`);
  }
  if (code === "EISDIR")
    return new CiteproofError("FILE_UNREADABLE", `${shown} is a directory, not a PDF file`);
  if (code === "ELOOP") return new CiteproofError("FILE_UNREADABLE", `${shown} is a symlink loop`);
  return new CiteproofError("FILE_UNREADABLE", `${shown} cannot be read (${code ?? "unknown error"})`);
}
