/**
 * The source a verify or locate names, of any kind: its path from `source` (or its alias `pdf`), its
 * bytes read once through one descriptor (inside the allowed roots for a path from data), its kind
 * recognised by content, and for a flow kind its parsed document (cached by sha256). An http(s) URL is
 * fetched once under cite-check's limits (size, redirects, the call's deadline; an agent's call never
 * reaches a private address unless its server allows it), its kind from its content and the media type
 * served together (media-type.ts).
 */

import { CITE_CHECK_LIMITS } from "../checks/cite-check/limits.js";
import type { EvidenceRecord } from "../checks/evidence-record.js";
import { DEFAULT_TIMEOUT_MS } from "../document/deadline-default.js";
import { detectKind } from "../document/flow/detect.js";
import { fetchedKind } from "../document/flow/media-type.js";
import type { FlowDocument, FlowKind, SourceBytes, SourceKind } from "../document/flow/model.js";
import { CiteproofError } from "../errors.js";
import { asPdf } from "../source/file.js";
import type { OperationContext } from "./operation.js";
import { inputSource } from "./paths.js";

export type OpenedSource =
  | { kind: "pdf"; path: string; source: SourceBytes }
  | { kind: FlowKind; path: string; source: SourceBytes; doc: FlowDocument };

/** The path named by `source` or `pdf`: exactly one of them (USAGE otherwise, naming the fields). */
export function sourcePath(input: { source?: string; pdf?: string }): string {
  if (input.source !== undefined && input.pdf !== undefined)
    throw new CiteproofError("USAGE", "give {{source}} or {{pdf}}, not both (pdf is an alias of source)", {
      path: "pdf",
      field: "pdf",
    });
  const path = input.source ?? input.pdf;
  if (path === undefined)
    throw new CiteproofError("USAGE", "{{source}} is missing: the path of the cited source", {
      path: "source",
      field: "source",
    });
  return path;
}

/** The source's bytes, read once, and its kind (by content, and for a URL by the media type served too). */
export async function readAnySource(
  ctx: Pick<OperationContext, "cwd" | "access" | "open" | "privateUrls">,
  path: string,
  pdfOnly: { password?: string; ocr?: string } = {},
  claimedPdf = false,
): Promise<{ kind: SourceKind; path: string; source: SourceBytes }> {
  const fetched = isUrl(path) ? await fetchSource(ctx, path) : undefined;
  const source = fetched?.source ?? (await inputSource(ctx, path));
  if (claimedPdf) return { kind: "pdf", path, source: asPdf(source) };
  const detected = detectKind(source.bytes, source.origin).kind;
  const kind = fetched ? fetchedKind(detected, fetched.mediaType, path) : detected;
  if (kind === "pdf") return { kind, path, source };
  for (const [option, value] of Object.entries(pdfOnly))
    if (value !== undefined)
      throw new CiteproofError("USAGE", `${path} is not a PDF: ${option} is read only for a PDF`, { option });
  return { kind, path, source };
}

/** Reads and opens the source; a PDF is left to the PDF path (its bytes read once here). */
export async function openAnySource(
  ctx: Pick<OperationContext, "cwd" | "access" | "open" | "privateUrls">,
  path: string,
  pdfOnly: { password?: string; ocr?: string } = {},
  claimedPdf = false,
  beforeReading: (kind: FlowKind) => void | Promise<void> = () => undefined,
): Promise<OpenedSource> {
  const read = await readAnySource(ctx, path, pdfOnly, claimedPdf);
  if (read.kind === "pdf") return { ...read, kind: "pdf" };
  const { kind, source } = read;
  await beforeReading(kind);
  // The flow readers are loaded only for a flow source: a PDF's check never runs them.
  const { openFlow } = await import("../document/flow/open.js");
  const doc = await openFlow(source, kind, {
    cacheDir: ctx.open.cacheDir,
    noCache: ctx.open.noCache,
    timeoutMs: ctx.open.timeoutMs,
  });
  return { kind, path, source, doc };
}

/**
 * Opens the source `source` (or `pdf`) names for checking `records`: a locator the source's kind does
 * not have is refused before it is read (and cached); only an EPUB may print page labels.
 */
export async function openCitedSource(
  ctx: Pick<OperationContext, "cwd" | "access" | "open" | "privateUrls">,
  input: { source?: string; pdf?: string; password?: string },
  records: readonly EvidenceRecord[],
): Promise<OpenedSource> {
  const path = sourcePath(input);
  const locators = async (kind: FlowKind) => {
    if (kind !== "epub")
      (await import("../checks/flow-locators.js")).assertFlowLocators(kind, false, records, path);
  };
  return openAnySource(ctx, path, { password: input.password }, input.pdf !== undefined, locators);
}

/** An http(s) URL, fetched rather than read as a path. */
export function isUrl(path: string): boolean {
  return /^https?:\/\//iu.test(path);
}

async function fetchSource(
  ctx: Pick<OperationContext, "open" | "privateUrls">,
  url: string,
): Promise<{ source: SourceBytes; mediaType: string | null }> {
  // The HTTP client's modules are loaded only for a URL.
  const { fetchBytes } = await import("../source/url.js");
  const fetched = await fetchBytes(url, {
    maxBytes: Math.min(
      ctx.open.maxBytes ?? CITE_CHECK_LIMITS.maxSourceBytes,
      CITE_CHECK_LIMITS.maxSourceBytes,
    ),
    timeoutMs: ctx.open.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRedirects: CITE_CHECK_LIMITS.maxRedirects,
    privateAddresses: ctx.privateUrls ?? "allow",
  });
  return {
    source: {
      bytes: fetched.bytes,
      sha256: fetched.sha256,
      origin: url,
      ...(fetched.charset === null ? {} : { charset: fetched.charset }),
    },
    mediaType: fetched.mediaType,
  };
}
