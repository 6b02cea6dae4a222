/**
 * Admitting the one source of a check: a local path inside an allowed root (symlinks resolved), or
 * an http(s) URL within the size, redirect and deadline limits whose body starts with `%PDF-`.
 * The bytes are read once and hashed; that snapshot is what is extracted and rendered.
 */
import { CiteproofError } from "../../errors.js";
import { type PathAccess, readAdmittedPdf } from "../../source/allowed-root.js";
import { type PdfBytes, readPdfFile } from "../../source/file.js";
import { fetchBytes } from "../../source/url.js";
import type { Deadline } from "../../util/deadline.js";
import { CITE_CHECK_LIMITS } from "./limits.js";
import type { CiteSource } from "./request.js";

export interface AdmitOptions {
  /** Roots a local path may resolve into ("anywhere": a path a person typed); the working directory when none are given. */
  allowRoots?: PathAccess;
  deadline: Deadline;
  /** Whether a URL on a loopback, private or link-local address is fetched (default "allow"). */
  privateUrls?: "allow" | "refuse";
}

export async function admitSource(source: CiteSource, options: AdmitOptions): Promise<PdfBytes> {
  if ("path" in source) {
    if (options.allowRoots === "anywhere") return readPdfFile(source.path, CITE_CHECK_LIMITS.maxSourceBytes);
    const roots = options.allowRoots && options.allowRoots.length > 0 ? options.allowRoots : [process.cwd()];
    return readAdmittedPdf(source.path, roots, CITE_CHECK_LIMITS.maxSourceBytes);
  }
  const fetched = await fetchBytes(source.url, {
    maxBytes: CITE_CHECK_LIMITS.maxSourceBytes,
    timeoutMs: options.deadline.remaining(),
    maxRedirects: CITE_CHECK_LIMITS.maxRedirects,
    accept: "application/pdf",
    privateAddresses: options.privateUrls ?? "allow",
  });
  const head = Buffer.from(fetched.bytes.subarray(0, 5)).toString("latin1");
  if (head !== "%PDF-")
    throw new CiteproofError(
      "NOT_PDF",
      `${source.url} did not return a PDF (the body does not start with %PDF-)`,
    );
  return { bytes: fetched.bytes, sha256: fetched.sha256, origin: source.url };
}
