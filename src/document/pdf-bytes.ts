/**
 * A PDF's bytes (read once, hashed) and the cache of what is derived from them: all a check answered
 * from kept results needs, apart from open.ts, which loads the engine.
 */
import { DEFAULT_MAX_PDF_BYTES, type PdfBytes, readPdfFile } from "../source/file.js";
import { defaultCacheDir, ExtractionCache } from "./cache.js";
import type { OpenOptions } from "./open.js";

/** The extraction cache entry a document opened with these options uses; none with noCache or a password. */
export function documentCache(
  sha256: string,
  options: Pick<OpenOptions, "cacheDir" | "noCache" | "password">,
): ExtractionCache | undefined {
  // Text decrypted with a password is never written to disk.
  const cacheable = !options.noCache && options.password === undefined;
  return cacheable ? new ExtractionCache(options.cacheDir ?? defaultCacheDir(), sha256) : undefined;
}

/** The bytes of a PDF named by path (read once, hashed), or the bytes given. */
export async function pdfSource(
  input: string | PdfBytes,
  options: Pick<OpenOptions, "maxBytes">,
): Promise<PdfBytes> {
  return typeof input === "string"
    ? await readPdfFile(input, options.maxBytes ?? DEFAULT_MAX_PDF_BYTES)
    : input;
}
