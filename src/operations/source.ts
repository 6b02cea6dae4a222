/**
 * The source operations of an evidence run: retrieve, register and read content-addressed snapshots.
 * Commands only (`citeproof source ...`): they write a run's store and event log.
 */
import type { z } from "zod";
import type { AccessLevel } from "../evidence/reasons.js";
import type { SearchOptions, SpanSearch } from "../evidence/search.js";
import {
  fetchSource,
  localSource,
  type ReadWindow,
  readSource,
  registerSource,
  type SourceMeta,
  type SourceReceipt,
  searchSource,
} from "../evidence/sources.js";
import { defineOperation } from "./operation.js";
import { inputPath } from "./paths.js";
import type {
  sourceFetchInput,
  sourceLocalInput,
  sourceReadInput,
  sourceRegisterInput,
  sourceSpansInput,
} from "./schemas/source.js";

export type SourceFetchInput = z.infer<typeof sourceFetchInput.object>;
export type SourceLocalInput = z.infer<typeof sourceLocalInput.object>;
export type SourceRegisterInput = z.infer<typeof sourceRegisterInput.object>;
export type SourceReadInput = z.infer<typeof sourceReadInput.object>;
export type SourceSpansInput = z.infer<typeof sourceSpansInput.object>;
export type SpansFound = SpanSearch & {
  source_id: string;
  access: AccessLevel;
  length: number;
  event_id: string;
};

const schemas = () => import("./schemas/index.js").then((m) => m.INPUT_SCHEMAS);

export const sourceFetchOperation = defineOperation<SourceFetchInput, SourceReceipt>({
  name: "source_fetch",
  title: "Retrieve a URL into an evidence run",
  description:
    "Retrieves a URL (HTML, PDF or plain text), stores its text as a content-addressed snapshot of the " +
    "run and logs a fresh fetch. Returns the snapshot's description and the event logged.",
  openWorld: true,
  schema: () => schemas().then((s) => s.source_fetch),
  output: () => import("./schemas/evidence-outputs.js").then((m) => m.sourceReceiptOutput),
  run: (input, ctx) =>
    fetchSource(inputPath(ctx, input.run_dir), input.url, {
      ...sourceMeta(input),
      maxBytes: input.max_bytes,
      timeoutMs: input.timeout_ms,
      maxRedirects: input.max_redirects,
      cacheDir: ctx.open.cacheDir,
    }),
  json: (receipt) => receipt,
  format: formatReceipt,
  exitCode: () => 0,
});

export const sourceLocalOperation = defineOperation<SourceLocalInput, SourceReceipt>({
  name: "source_local",
  title: "Register a user-supplied file (a PDF or a flow source) in an evidence run",
  description:
    "Registers a file from the run's library root (hashed, not copied) as a snapshot of its text: a PDF, " +
    "logged as local_pdf, or a flow source (HTML, Markdown, text, EPUB, DOCX, ODT, JATS; kind told by " +
    "content), logged as local_file, whose snapshot text is exactly the text verify and locate read. " +
    "Returns the snapshot's description and the event logged.",
  schema: () => schemas().then((s) => s.source_local),
  output: () => import("./schemas/evidence-outputs.js").then((m) => m.sourceReceiptOutput),
  run: (input, ctx) =>
    localSource(inputPath(ctx, input.run_dir), inputPath(ctx, input.file), {
      ...sourceMeta(input),
      cacheDir: ctx.open.cacheDir,
      timeoutMs: ctx.open.timeoutMs,
      maxBytes: ctx.open.maxBytes,
      password: input.password,
    }),
  json: (receipt) => receipt,
  format: formatReceipt,
  exitCode: () => 0,
});

export const sourceRegisterOperation = defineOperation<SourceRegisterInput, SourceReceipt>({
  name: "source_register",
  title: "Register text obtained elsewhere in an evidence run",
  description:
    "Registers text obtained elsewhere as a snapshot of the run (never counted as a fresh retrieval). " +
    "Returns the snapshot's description and the event logged.",
  schema: () => schemas().then((s) => s.source_register),
  output: () => import("./schemas/evidence-outputs.js").then((m) => m.sourceReceiptOutput),
  run: async (input, ctx) =>
    registerSource(inputPath(ctx, input.run_dir), {
      ...sourceMeta(input),
      url: input.url,
      text: input.text,
      mediaType: input.media_type,
    }),
  json: (receipt) => receipt,
  format: formatReceipt,
  exitCode: () => 0,
});

export const sourceReadOperation = defineOperation<SourceReadInput, ReadWindow>({
  name: "source_read",
  title: "Read a window of a snapshot",
  description:
    "A verified, bounded read of a snapshot: [start, end) in code points (default 4000, at most 20000), " +
    "logged as a read.",
  schema: () => schemas().then((s) => s.source_read),
  output: () => import("./schemas/evidence-outputs.js").then((m) => m.sourceReadOutput),
  run: async (input, ctx) =>
    readSource(inputPath(ctx, input.run_dir), input.source_id, {
      start: input.start,
      end: input.end,
      actor: input.actor,
    }),
  json: (window) => window,
  format: (w) =>
    `${w.source_id} [${w.start}, ${w.end}) of ${w.length} code points, access ${w.access}, ${w.content_hash} verified\n${w.text}\n`,
  exitCode: () => 0,
});

export const sourceSpansOperation = defineOperation<SourceSpansInput, SpansFound>({
  name: "source_spans",
  title: "Find where a snapshot says something",
  description:
    "Searches a snapshot: exact on the folded text, else approximate windows scored by the share of the " +
    "query's words they hold; each hit with its offsets in code points and the window around it.",
  schema: () => schemas().then((s) => s.source_spans),
  output: () => import("./schemas/evidence-outputs.js").then((m) => m.sourceSpansOutput),
  run: async (input, ctx) => {
    const options: SearchOptions & { actor?: string } = {
      contextCodePoints: input.context,
      maxHits: input.max_hits,
      actor: input.actor,
    };
    return searchSource(inputPath(ctx, input.run_dir), input.source_id, input.query, options);
  },
  json: (found) => found,
  format: formatSpans,
  exitCode: () => 0,
});

type MetaInput = Pick<
  SourceFetchInput,
  "access" | "origin" | "evidence_id" | "pmid" | "doi" | "pmcid" | "title" | "actor"
>;

function sourceMeta(input: MetaInput): SourceMeta {
  const paper =
    input.pmid || input.doi || input.pmcid
      ? { pmid: input.pmid, doi: input.doi, pmcid: input.pmcid }
      : undefined;
  return {
    access: input.access,
    origin: input.origin,
    evidenceId: input.evidence_id,
    paper,
    title: input.title,
    actor: input.actor,
  };
}

function formatReceipt(receipt: SourceReceipt): string {
  const what = receipt.created ? "stored" : "already stored (unchanged; no-op)";
  return (
    `${receipt.source_id} ${what}: ${receipt.length} code points, access ${receipt.access}, origin ${receipt.origin}` +
    `${receipt.pages !== null ? `, ${receipt.pages} pages` : ""}\n` +
    `  ${receipt.content_hash}\n  event ${receipt.event.event_id} (${receipt.event.type}, fresh: ${receipt.event.fresh})\n`
  );
}

function formatSpans(found: SpansFound): string {
  const lines = [
    `${found.source_id}: ${found.method} match, ${found.hits.length} hit(s) for ${JSON.stringify(found.query)}`,
  ];
  // The window exactly as stored, line breaks and all, so what a writer copies is the snapshot's text.
  for (const [i, hit] of found.hits.entries()) {
    lines.push(
      `hit ${i + 1}: match start=${hit.start} end=${hit.end} (score ${hit.score}); window start=${hit.window_start} end=${hit.window_end}`,
      `<<<${hit.window}>>>`,
    );
  }
  return `${lines.join("\n")}\n`;
}
