/**
 * The source operations of a run: fetch (a real retrieval), local (a user-supplied file: a PDF, or a
 * flow source whose snapshot text is the flow document's text, exactly what the checks read), register
 * (text obtained elsewhere), and the verified reads (a bounded window, a span search). Each one
 * stores or verifies a snapshot and appends its event to the log.
 */
import { resolve } from "node:path";
import type { FlowDocument, FlowKind } from "../document/flow/model.js";
import { openFlow, sourceKind } from "../document/flow/open.js";
import { kindName } from "../document/flow/readers.js";
import { CiteproofError } from "../errors.js";
import { asPdf, type PdfBytes, readSourceFile } from "../source/file.js";
import { fetchBytes } from "../source/url.js";
import { appendEvent, type EventInput, type RunEvent } from "./events.js";
import { libraryRootGuard, rootRelative } from "./fresh.js";
import { decodeHtml, htmlToText } from "./html-text.js";
import { doiForm, pmcidForm, pmidForm } from "./paper-ids.js";
import { pdfToText } from "./pdf-text.js";
import {
  ACCESS_LEVELS,
  type AccessLevel,
  DEFAULT_READ_CODE_POINTS,
  MAX_READ_CODE_POINTS,
  ORIGINS,
  type Origin,
} from "./reasons.js";
import { openRun, type RunInfo } from "./run.js";
import { type SearchOptions, type SpanSearch, searchSpans } from "./search.js";
import {
  buildSnapshot,
  type PaperIds,
  type Snapshot,
  type SnapshotInput,
  SnapshotStore,
  storeSnapshot,
} from "./snapshot.js";

export interface SourceMeta {
  access?: AccessLevel;
  origin?: Origin;
  evidenceId?: string | null;
  paper?: Partial<PaperIds> | null;
  title?: string | null;
  /** Who performed the operation, for the event log. */
  actor?: string;
}

export interface FetchSourceOptions extends SourceMeta {
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Extraction cache for fetched PDFs. */
  cacheDir?: string;
}

export interface LocalSourceOptions extends SourceMeta {
  cacheDir?: string;
  timeoutMs?: number;
  maxBytes?: number;
  password?: string;
}

/** What a source operation returns: the snapshot's description (text left out) and the event logged. */
export interface SourceReceipt {
  source_id: string;
  content_hash: string;
  url: string;
  final_url: string | null;
  title: string | null;
  access: AccessLevel;
  origin: Origin;
  evidence_id: string | null;
  paper: PaperIds | null;
  asset: Snapshot["asset"];
  media_type: string;
  pages: number | null;
  length: number;
  /** False when an identical snapshot was already stored (the registration was a no-op). */
  created: boolean;
  event: RunEvent;
}

type RunArg = RunInfo | string;
const asRun = (run: RunArg): RunInfo => (typeof run === "string" ? openRun(run) : run);

/** Retrieves a URL, extracts its text (HTML, PDF or plain text), stores the snapshot, logs a fresh fetch. */
export async function fetchSource(
  runArg: RunArg,
  url: string,
  options: FetchSourceOptions = {},
): Promise<SourceReceipt> {
  const run = asRun(runArg);
  const started = Date.now();
  const fetched = await fetchBytes(url, {
    maxBytes: options.maxBytes,
    timeoutMs: options.timeoutMs,
    maxRedirects: options.maxRedirects,
    accept: "text/html, application/xhtml+xml, application/pdf;q=0.9, text/plain;q=0.8, */*;q=0.1",
  });
  const media = fetched.mediaType ?? "";
  const looksPdf = Buffer.from(fetched.bytes.subarray(0, 1024)).toString("latin1").includes("%PDF-");
  let input: SnapshotInput;
  let kind: string;
  if (media === "application/pdf" || (looksPdf && !media.startsWith("text/"))) {
    const bytes: PdfBytes = { bytes: fetched.bytes, sha256: fetched.sha256, origin: url };
    // One deadline for the retrieval and the extraction together.
    const timeoutMs =
      options.timeoutMs === undefined ? undefined : Math.max(1, options.timeoutMs - (Date.now() - started));
    // A retrieved PDF is not kept: its glyph geometry must reach the extraction cache now.
    const pdf = await pdfToText(bytes, { cacheDir: options.cacheDir, timeoutMs, withGeometry: true });
    kind = `pdf, ${pdf.document.page_count} pages`;
    input = {
      url,
      text: pdf.text,
      access: options.access ?? "full_text",
      origin: options.origin ?? "oa-pdf",
      mediaType: "application/pdf",
      document: pdf.document,
      sections: pdf.sections,
    };
  } else if (
    media === "text/html" ||
    media === "application/xhtml+xml" ||
    (media === "" &&
      /<html|<!doctype html/i.test(Buffer.from(fetched.bytes.subarray(0, 1024)).toString("latin1")))
  ) {
    const html = htmlToText(decodeHtml(fetched.bytes, fetched.charset));
    kind = "html";
    input = {
      url,
      text: html.text,
      access: options.access ?? "web",
      origin: options.origin ?? "web",
      mediaType: "text/html",
      title: html.title,
      sections: html.headings,
      paper: html.paper,
    };
  } else if (media === "text/plain") {
    kind = "text";
    input = {
      url,
      text: decodeText(fetched.bytes, fetched.charset, url),
      access: options.access ?? "web",
      origin: options.origin ?? "web",
      mediaType: "text/plain",
    };
  } else {
    throw new CiteproofError(
      "CONTENT_NOT_SUPPORTED",
      `${url} sent ${media || "no content type"}; only HTML, PDF and plain text are extracted`,
    );
  }
  input.finalUrl = fetched.finalUrl !== url ? fetched.finalUrl : null;
  applyMeta(input, options);
  const snapshot = buildSnapshot(input);
  return record(run, snapshot, {
    type: "fetch",
    url,
    fresh: true,
    actor: options.actor,
    detail: `${kind}, ${snapshot.length} chars, http ${fetched.status}${fetched.redirects.length ? `, via ${fetched.redirects.length} redirect(s)` : ""}`,
  });
}

/**
 * Registers a user-supplied file from the run's library root (no copy): a PDF, logged as local_pdf, or
 * a source of another kind (recognised by content), logged as local_file, whose snapshot text is its
 * flow document's text, the very text verify, locate and check-text read.
 */
export async function localSource(
  runArg: RunArg,
  file: string,
  options: LocalSourceOptions = {},
): Promise<SourceReceipt> {
  const run = asRun(runArg);
  const absolute = resolve(file);
  if (!rootRelative(run.libraryRoot, absolute)) {
    throw new CiteproofError(
      "ACCESS_DENIED",
      `${file} is not inside the run's library root ${run.libraryRoot}`,
    );
  }
  // The path is checked again on the file actually opened, and its place in the root taken from there.
  const guard = libraryRootGuard(run.libraryRoot);
  let relative = "";
  const source = await readSourceFile(absolute, options.maxBytes, (real) => {
    guard(real);
    relative = rootRelative(run.libraryRoot, real) ?? "";
  });
  const kind = sourceKind(source);
  if (kind !== "pdf") return localFlowSource(run, source, kind, relative, options);
  const pdf = asPdf(source);
  // With glyph geometry, so the headings can be told by their face as well as their size.
  const extracted = await pdfToText(pdf, {
    cacheDir: options.cacheDir,
    timeoutMs: options.timeoutMs,
    password: options.password,
    withGeometry: true,
  });
  const input: SnapshotInput = {
    url: `file:${relative}#sha256=${pdf.sha256}`,
    text: extracted.text,
    access: options.access ?? "full_text",
    origin: "user-supplied-pdf",
    mediaType: "application/pdf",
    asset: { path: relative, sha256: pdf.sha256, bytes: pdf.bytes.byteLength },
    document: extracted.document,
    sections: extracted.sections,
  };
  if (options.origin !== undefined && options.origin !== "user-supplied-pdf") {
    throw new CiteproofError("USAGE", "a local PDF's origin is always user-supplied-pdf");
  }
  applyMeta(input, options);
  const snapshot = buildSnapshot(input);
  return record(run, snapshot, {
    type: "local_pdf",
    url: null,
    fresh: true,
    actor: options.actor,
    assetSha256: pdf.sha256,
    detail: `user-supplied pdf ${relative}, ${extracted.document.page_count} pages, ${snapshot.length} chars`,
  });
}

/** The origins only `source local` gives, each fresh through its hash-checked file. */
const LOCAL_ORIGINS: readonly string[] = ["user-supplied-pdf", "user-supplied-file"];

/** The media type a snapshot of a flow kind records. */
const FLOW_MEDIA_TYPES: Record<FlowKind, string> = {
  html: "text/html",
  xhtml: "application/xhtml+xml",
  epub: "application/epub+zip",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  odt: "application/vnd.oasis.opendocument.text",
  jats: "application/jats+xml",
  markdown: "text/markdown",
  text: "text/plain",
};

async function localFlowSource(
  run: RunInfo,
  source: PdfBytes,
  kind: FlowKind,
  relative: string,
  options: LocalSourceOptions,
): Promise<SourceReceipt> {
  if (options.password !== undefined)
    throw new CiteproofError("USAGE", `${relative} is not a PDF: a password is read only for a PDF`, {
      option: "password",
    });
  if (options.origin !== undefined && options.origin !== "user-supplied-file")
    throw new CiteproofError(
      "USAGE",
      `${relative} is ${kindName(kind)}: a local file's origin is always user-supplied-file`,
    );
  const doc = await openFlow(source, kind, { cacheDir: options.cacheDir, timeoutMs: options.timeoutMs });
  const input: SnapshotInput = {
    url: `file:${relative}#sha256=${source.sha256}`,
    // Exactly the text the checks read: spans found in it are the offsets verify and locate report.
    text: doc.text,
    access: options.access ?? "full_text",
    origin: "user-supplied-file",
    mediaType: FLOW_MEDIA_TYPES[kind],
    title: doc.title ?? null,
    asset: { path: relative, sha256: source.sha256, bytes: source.bytes.byteLength },
    sections: flowSections(doc),
  };
  applyMeta(input, options);
  const snapshot = buildSnapshot(input);
  return record(run, snapshot, {
    type: "local_file",
    url: null,
    fresh: true,
    actor: options.actor,
    assetSha256: source.sha256,
    detail: `user-supplied ${kindName(kind)} ${relative}, ${doc.headings.length} headings, ${snapshot.length} chars`,
  });
}

/** Where each heading starts in the text, named as a section locator names it (`2.1 Data`). */
function flowSections(doc: FlowDocument): { start: number; title: string }[] {
  return doc.headings.map((h) => ({
    start: h.startCp,
    title: h.number ? `${h.number} ${h.title}` : h.title,
  }));
}

export interface RegisterInput extends SourceMeta {
  url: string;
  text: string;
  mediaType?: string;
}

/** Registers text obtained elsewhere. Logged as register: never fresh. */
export function registerSource(runArg: RunArg, input: RegisterInput): SourceReceipt {
  const run = asRun(runArg);
  if (input.url.length === 0)
    throw new CiteproofError("USAGE", "a registered source needs a URL", { field: "url", option: "url" });
  const snapshotInput: SnapshotInput = {
    url: input.url,
    text: input.text,
    access: input.access ?? "web",
    origin: input.origin ?? "web",
    mediaType: input.mediaType ?? "text/plain",
  };
  applyMeta(snapshotInput, input);
  const snapshot = buildSnapshot(snapshotInput);
  return record(run, snapshot, {
    type: "register",
    url: input.url,
    fresh: false,
    actor: input.actor,
    detail: `registered text, ${snapshot.length} chars`,
  });
}

export interface ReadWindow {
  source_id: string;
  content_hash: string;
  access: AccessLevel;
  url: string;
  /** Length of the whole text in code points. */
  length: number;
  start: number;
  end: number;
  text: string;
  event_id: string;
}

/** A verified, bounded read: [start, end) in code points, 4,000 by default, at most 20,000. */
export function readSource(
  runArg: RunArg,
  sourceId: string,
  window: { start?: number; end?: number; actor?: string } = {},
): ReadWindow {
  const run = asRun(runArg);
  const { snapshot, index } = new SnapshotStore(run).require(sourceId);
  const start = window.start ?? 0;
  if (!Number.isSafeInteger(start) || start < 0 || start > index.length) {
    throw new CiteproofError(
      "USAGE",
      `the read's start ${start} is outside the text (0..${index.length} code points)`,
      { field: "start", option: "start", limit: index.length },
    );
  }
  let end = window.end ?? Math.min(index.length, start + DEFAULT_READ_CODE_POINTS);
  if (!Number.isSafeInteger(end) || end < start)
    throw new CiteproofError("USAGE", `the read's end ${end} is before its start ${start}`, {
      field: "end",
      option: "end",
    });
  if (end - start > MAX_READ_CODE_POINTS) {
    throw new CiteproofError(
      "USAGE",
      `a read window holds at most ${MAX_READ_CODE_POINTS} characters (asked for ${end - start})`,
    );
  }
  end = Math.min(end, index.length);
  const event = appendEvent(run, {
    type: "read",
    sourceId,
    url: snapshot.url,
    fresh: false,
    sha256: snapshot.content_hash.slice(7),
    actor: window.actor,
    start,
    end,
    detail: `read ${end - start} chars`,
  });
  return {
    source_id: sourceId,
    content_hash: snapshot.content_hash,
    access: snapshot.access,
    url: snapshot.url,
    length: index.length,
    start,
    end,
    text: index.slice(start, end),
    event_id: event.event_id,
  };
}

/** Searches a verified snapshot for a query; logged as a read. */
export function searchSource(
  runArg: RunArg,
  sourceId: string,
  query: string,
  options: SearchOptions & { actor?: string } = {},
): SpanSearch & { source_id: string; access: AccessLevel; length: number; event_id: string } {
  const run = asRun(runArg);
  const { snapshot, index } = new SnapshotStore(run).require(sourceId);
  const found = searchSpans(index, query, options);
  const event = appendEvent(run, {
    type: "read",
    sourceId,
    url: snapshot.url,
    fresh: false,
    sha256: snapshot.content_hash.slice(7),
    actor: options.actor,
    detail: `spans query (${found.method}, ${found.hits.length} hit(s)): ${query.slice(0, 200)}`,
  });
  return {
    source_id: sourceId,
    access: snapshot.access,
    length: index.length,
    ...found,
    event_id: event.event_id,
  };
}

function record(
  run: RunInfo,
  snapshot: Snapshot,
  event: Omit<EventInput, "sourceId" | "sha256">,
): SourceReceipt {
  const stored = storeSnapshot(run, snapshot);
  const kept = stored.snapshot;
  const logged = appendEvent(run, { ...event, sourceId: kept.source_id, sha256: kept.content_hash.slice(7) });
  return {
    source_id: kept.source_id,
    content_hash: kept.content_hash,
    url: kept.url,
    final_url: kept.final_url,
    title: kept.title,
    access: kept.access,
    origin: kept.origin,
    evidence_id: kept.evidence_id,
    paper: kept.paper,
    asset: kept.asset,
    media_type: kept.media_type,
    pages: kept.document?.page_count ?? null,
    length: kept.length,
    created: stored.created,
    event: logged,
  };
}

function applyMeta(input: SnapshotInput, meta: SourceMeta): void {
  if (meta.access !== undefined) {
    if (!(ACCESS_LEVELS as readonly string[]).includes(meta.access)) {
      throw new CiteproofError("USAGE", `the access level must be one of ${ACCESS_LEVELS.join(", ")}`, {
        field: "access",
        option: "access",
      });
    }
    input.access = meta.access;
  }
  if (meta.origin !== undefined && !LOCAL_ORIGINS.includes(input.origin)) {
    if (!(ORIGINS as readonly string[]).includes(meta.origin) || LOCAL_ORIGINS.includes(meta.origin)) {
      throw new CiteproofError(
        "USAGE",
        `the origin must be one of ${ORIGINS.filter((o) => !LOCAL_ORIGINS.includes(o)).join(", ")} (user-supplied-pdf and user-supplied-file are for a local file)`,
        { field: "origin", option: "origin" },
      );
    }
    input.origin = meta.origin;
  }
  if (meta.title !== undefined && meta.title !== null) input.title = meta.title;
  if (meta.evidenceId !== undefined && meta.evidenceId !== null) {
    if (!/^[a-z][a-z0-9_-]*:\S/i.test(meta.evidenceId)) {
      throw new CiteproofError(
        "USAGE",
        `the evidence id ${JSON.stringify(meta.evidenceId)} must look like kind:identifier`,
        { field: "evidence_id", option: "evidence_id" },
      );
    }
    input.evidenceId = meta.evidenceId;
  }
  if (meta.paper) {
    const merged: PaperIds = { pmid: null, doi: null, pmcid: null, ...(input.paper ?? {}) };
    if (meta.paper.pmid) merged.pmid = normalisePmid(meta.paper.pmid);
    if (meta.paper.doi) merged.doi = normaliseDoi(meta.paper.doi);
    if (meta.paper.pmcid) merged.pmcid = normalisePmcid(meta.paper.pmcid);
    input.paper = merged.pmid || merged.doi || merged.pmcid ? merged : null;
  }
}

function idError(field: "pmid" | "doi" | "pmcid", message: string): CiteproofError {
  return new CiteproofError("USAGE", message, { field, option: field });
}

function normalisePmid(value: string): string {
  const v = pmidForm(value);
  if (v === null) throw idError("pmid", `${JSON.stringify(value)} is not a PMID`);
  return v;
}

function normaliseDoi(value: string): string {
  const v = doiForm(value);
  if (v === null) throw idError("doi", `${JSON.stringify(value)} is not a DOI`);
  return v;
}

function normalisePmcid(value: string): string {
  const v = pmcidForm(value);
  if (v === null) throw idError("pmcid", `${JSON.stringify(value)} is not a PMCID`);
  return v;
}

/** Decodes plain text in its declared charset (else UTF-8); bytes that are not valid in it are refused. */
function decodeText(bytes: Uint8Array, charset: string | null, url: string): string {
  const decoder = strictDecoder(charset ?? "utf-8");
  try {
    return decoder.decode(bytes);
  } catch {
    throw new CiteproofError(
      "EVIDENCE_INVALID",
      `${url} sent text that is not valid ${decoder.encoding}; it is refused, not stored with replacement characters`,
    );
  }
}

/** A decoder that throws on bytes not valid in `label` (UTF-8 when the label is unknown). */
function strictDecoder(label: string) {
  try {
    return new TextDecoder(label, { fatal: true });
  } catch {
    return new TextDecoder("utf-8", { fatal: true });
  }
}
