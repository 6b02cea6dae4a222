/**
 * The one place a draft's cited sources are opened: a bibliography entry's local file (a path that
 * arrives in data, read only inside the allowed roots through one descriptor) or its URL (fetched
 * only when asked, within the `source fetch` limits). Today a source is a PDF; a source of another
 * kind is unavailable, saying which kind, until its reader is wired in here.
 */
import { isAbsolute, resolve } from "node:path";
import { openForChecks } from "../checks/open-for-checks.js";
import type { CheckContext } from "../checks/verify.js";
import { checkContext } from "../checks/verify.js";
import type { OpenOptions } from "../document/open.js";
import { asCiteproofError } from "../errors.js";
import { readAdmittedPdf } from "../source/allowed-root.js";
import { assertPdfHeader, type PdfBytes } from "../source/file.js";
import { type FetchOptions, fetchBytes } from "../source/url.js";
import type { BibEntry } from "./bibliography.js";

export const SOURCE_KINDS = ["pdf"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** Where an entry's source is: a local path (absolute) or a URL. */
export type SourceLocation = { path: string } | { url: string };

export interface OpenedSource {
  location: SourceLocation;
  kind: SourceKind;
  sha256: string;
  pages: number;
  context: CheckContext;
}

export interface UnavailableSource {
  location: SourceLocation | null;
  /** Why: no file named, outside the roots, not fetched, unreadable, not a kind read. */
  message: string;
}

export interface SourceOptions {
  /** The bibliography's folder: relative `file` paths start here. */
  folder: string;
  /** Real roots a local file must lie in. */
  roots: readonly string[];
  fetch: boolean;
  fetchOptions?: FetchOptions;
  open: OpenOptions;
  /** Whether some citation of the source names an equation or a figure. */
  needsAnchors: boolean;
}

/** Where an entry's source is: its first file, else its first URL; null when it names neither. */
export function sourceLocation(entry: BibEntry, folder: string): SourceLocation | null {
  const file = entry.files[0];
  if (file !== undefined) return { path: isAbsolute(file) ? file : resolve(folder, file) };
  const url = entry.urls[0];
  return url !== undefined ? { url } : null;
}

export function locationName(location: SourceLocation): string {
  return "path" in location ? location.path : location.url;
}

/** Opens one source, or says why it is unavailable; it never throws for the source's own faults. */
export async function openCitedSource(
  location: SourceLocation,
  options: SourceOptions,
): Promise<OpenedSource | UnavailableSource> {
  try {
    let bytes: PdfBytes;
    if ("path" in location) {
      bytes = await readAdmittedPdf(location.path, options.roots, options.open.maxBytes);
    } else {
      if (!options.fetch)
        return {
          location,
          message: `${location.url} is a URL and was not fetched (fetching was not asked for)`,
        };
      const fetched = await fetchBytes(location.url, options.fetchOptions);
      assertPdfHeader(fetched.bytes, location.url);
      bytes = { bytes: fetched.bytes, sha256: fetched.sha256, origin: location.url };
    }
    const doc = await openForChecks(bytes, options.open, options.needsAnchors);
    return {
      location,
      kind: "pdf",
      sha256: doc.sha256,
      pages: doc.pageCount,
      context: checkContext(doc, options.open),
    };
  } catch (error) {
    const coded = asCiteproofError(error);
    return { location, message: `${coded.message} [${coded.code}]` };
  }
}
