/**
 * The one place a draft's cited sources are opened: a bibliography entry's local file (a path that
 * arrives in data, read only inside the allowed roots through one descriptor) or its URL (fetched
 * only when asked, within the `source fetch` limits). The kind is read from the bytes: a PDF is
 * opened for the page checks, a flow source (HTML, EPUB, DOCX, ODT, JATS, Markdown, text) by its
 * reader for the section checks.
 */
import { isAbsolute, resolve } from "node:path";
import { type CheckContext, checkContext } from "../checks/verify.js";
import type { FlowDocument, SourceKind } from "../document/flow/model.js";
import { openFlow, sourceKind } from "../document/flow/open.js";
import type { OpenOptions } from "../document/open.js";
import { asCiteproofError } from "../errors.js";
import { openForChecks } from "../reading/open-for-checks.js";
import { readAdmittedSource } from "../source/allowed-root.js";
import type { PdfBytes } from "../source/file.js";
import { type FetchOptions, fetchBytes } from "../source/url.js";
import { FoldedFlow } from "../text/folded-flow.js";
import type { BibEntry } from "./bibliography.js";

export type { SourceKind };

/** Where an entry's source is: a local path (absolute) or a URL. */
export type SourceLocation = { path: string } | { url: string };

interface OpenedBase {
  location: SourceLocation;
  sha256: string;
  /**
   * The text the identity check reads: a PDF's first two pages; a flow source's title, first
   * headings and first paragraphs.
   */
  front: string;
  /** A PDF's title from its metadata (the Info dictionary's /Title); absent when it names none. */
  metadataTitle?: string;
}

export type OpenedSource =
  | (OpenedBase & { kind: "pdf"; pages: number; context: CheckContext })
  | (OpenedBase & { kind: Exclude<SourceKind, "pdf">; pages: null; flow: FoldedFlow });

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

/** A flow source's front matter: its title, then its first blocks, up to about two pages of text. */
const FRONT_CHARS = 6000;

/** Opens one source, or says why it is unavailable; it never throws for the source's own faults. */
export async function openCitedSource(
  location: SourceLocation,
  options: SourceOptions,
): Promise<OpenedSource | UnavailableSource> {
  try {
    let bytes: PdfBytes;
    if ("path" in location) {
      bytes = await readAdmittedSource(location.path, options.roots, options.open.maxBytes);
    } else {
      if (!options.fetch)
        return {
          location,
          message: `${location.url} is a URL and was not fetched (fetching was not asked for)`,
        };
      const fetched = await fetchBytes(location.url, options.fetchOptions);
      bytes = { bytes: fetched.bytes, sha256: fetched.sha256, origin: location.url };
    }
    const kind = sourceKind(bytes);
    if (kind !== "pdf") {
      const doc = await openFlow(bytes, kind, options.open);
      return {
        location,
        kind,
        sha256: doc.sha256,
        pages: null,
        front: flowFront(doc),
        flow: new FoldedFlow(doc),
      };
    }
    const doc = await openForChecks(bytes, options.open, options.needsAnchors);
    const front = doc.pages
      .slice(0, 2)
      .map((p) => p?.text ?? "")
      .join("\n");
    const metadataTitle = doc.pages[0]?.metadataTitle;
    return {
      location,
      kind,
      sha256: doc.sha256,
      pages: doc.pageCount,
      front,
      ...(metadataTitle !== undefined ? { metadataTitle } : {}),
      context: checkContext(doc, options.open),
    };
  } catch (error) {
    const coded = asCiteproofError(error);
    return { location, message: `${coded.message} [${coded.code}]` };
  }
}

function flowFront(doc: FlowDocument): string {
  return `${doc.title ?? ""}\n${doc.text.slice(0, FRONT_CHARS)}`;
}
