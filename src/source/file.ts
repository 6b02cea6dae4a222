import { createHash } from "node:crypto";
import { open, stat } from "node:fs/promises";
import { CiteproofError } from "../errors.js";

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

/** Reads a local PDF once, checks its size and header, and hashes the bytes. */
export async function readPdfFile(path: string, maxBytes = DEFAULT_MAX_PDF_BYTES): Promise<PdfBytes> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch (error) {
    throw fileError(error, path);
  }
  if (info.isDirectory())
    throw new CiteproofError("FILE_UNREADABLE", `${path} is a directory, not a PDF file`);
  if (info.size > maxBytes) {
    throw new CiteproofError(
      "FILE_TOO_LARGE",
      `${path} is ${info.size} bytes, over the limit of ${maxBytes} bytes`,
      { option: "max_bytes", limit: maxBytes },
    );
  }
  let bytes: Uint8Array;
  try {
    const handle = await open(path, "r");
    try {
      const buffer = Buffer.alloc(Number(info.size));
      let offset = 0;
      while (offset < buffer.length) {
        const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
      }
      bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, offset);
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw fileError(error, path);
  }
  if (bytes.byteLength === 0) throw new CiteproofError("NOT_PDF", `${path} is empty`);
  assertPdfHeader(bytes, path);
  return { bytes, sha256: sha256Hex(bytes), origin: path };
}

function fileError(error: unknown, path: string): CiteproofError {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "ENOENT" || code === "ENOTDIR")
    return new CiteproofError("FILE_NOT_FOUND", `${path} does not exist`);
  if (code === "EACCES" || code === "EPERM") {
    return new CiteproofError("FILE_UNREADABLE", `${path} cannot be read (permission denied)`);
  }
  if (code === "EISDIR")
    return new CiteproofError("FILE_UNREADABLE", `${path} is a directory, not a PDF file`);
  return new CiteproofError("FILE_UNREADABLE", `${path} cannot be read (${code ?? "unknown error"})`);
}
