/**
 * The assembler: reads a run's records, snapshots and events, checks every span and record, and
 * writes outputs/result.json: accepted[] (excerpts re-sliced from the snapshots, with section,
 * page and glyph boxes derived) and diagnostics.unresolved[] with closed reason codes. The gate is
 * always computed and reported; it blocks only when enabled, except for snapshot and span integrity
 * failures, which block promotion whatever the flag.
 */
import { mkdirSync } from "node:fs";
import { type EvidenceContext, evidenceContext } from "./context.js";
import { writeFileAtomic } from "./files.js";
import { describeFirstDifference } from "./first-difference.js";
import type { PageBox } from "./locate.js";
import { withSeal } from "./output-seal.js";
import {
  type CheckId,
  isIntegrityFailure,
  MAX_SPAN_CODE_POINTS,
  REASON_CHECK,
  REASON_CODES,
  type ReasonCode,
} from "./reasons.js";
import {
  type Artifact,
  type Footnote,
  loadRecords,
  paperIdKind,
  type RecordKind,
  type SpanRecord,
} from "./records.js";
import { RUN_FILES, type RunInfo, runPath } from "./run.js";
import type { Snapshot } from "./snapshot.js";

export const RESULT_SCHEMA_VERSION = 1;
export const RESULT_FILE = "result.json";

export interface AcceptedSpan {
  record: string;
  kind: RecordKind;
  record_id: string;
  /** The item of the record the span backs: "claim", "outcomes[0]", "facts[1]", "domains[2]". */
  field: string;
  /** Where the span sits in the records: "extractions[0].outcomes[0].spans[0]". */
  span: string;
  claim: string;
  evidence_id: string;
  source_id: string;
  start: number;
  end: number;
  access: string;
  /** text[start:end] of the snapshot, re-sliced here; never typed. */
  excerpt: string;
  section: string | null;
  page: number | null;
  pages?: number[];
  boxes?: PageBox[] | null;
  boxes_note?: string;
  url: string;
  title: string | null;
  /** The event that makes the source fresh in this run. */
  fresh_event: string;
}

export interface Unresolved {
  code: ReasonCode;
  check: CheckId;
  message: string;
  /** "claims[0]", "report.footnotes[1]", or a file name for a file-level problem. */
  record: string | null;
  record_id: string | null;
  /** The exact place: a span, a quote, a URL, an item. */
  path: string;
  source_id?: string;
  start?: number;
  end?: number;
}

export type RecordStatus = "accepted" | "partial" | "rejected";

export interface RecordOutcome {
  record: string;
  kind: RecordKind;
  id: string;
  /** The claim's own words (claims only): the heading of its concept when promoted. */
  text: string | null;
  status: RecordStatus;
  accepted_spans: number;
  unresolved: number;
}

export interface GateReport {
  enabled: boolean;
  /** pass iff nothing is unresolved. */
  verdict: "pass" | "fail";
  /** Integrity (C-SNAPSHOT, C-SPAN) failures: they block promotion whatever the flag. */
  integrity_failures: number;
  /** Whether this result blocks the next stage (gate enabled and failing, or integrity failures). */
  blocking: boolean;
}

export interface AssemblyResult {
  schema_version: number;
  run_id: string;
  run_created_at: string;
  assembled_at: string;
  gate: GateReport;
  accepted: AcceptedSpan[];
  records: RecordOutcome[];
  /** Quotes of each extraction, produced from its accepted spans. */
  quotes: { record: string; id: string; quotes: string[] }[];
  diagnostics: {
    unresolved: Unresolved[];
    counts: Partial<Record<ReasonCode, number>>;
    /** Event log lines that are not valid events (they count for nothing). */
    invalid_events: { line: number; reason: string }[];
  };
  summary: { records: number; spans: number; accepted: number; unresolved: number; sources: number };
}

export interface AssembleOptions {
  /** Enable the gate for this assembly; defaults to the run's setting. */
  gate?: boolean;
  /** Write outputs/result.json (default true). */
  write?: boolean;
  /** Extraction cache for page geometry of PDF snapshots. */
  cacheDir?: string;
  now?: Date;
}

/** Assembles a run and (by default) writes outputs/result.json atomically. */
export async function assembleRun(
  runOrDir: RunInfo | string,
  options: AssembleOptions = {},
): Promise<{ result: AssemblyResult; path: string }> {
  const ctx = evidenceContext(runOrDir, { cacheDir: options.cacheDir });
  const result = await assemble(ctx, options);
  const path = resultPath(ctx.run);
  if (options.write !== false) {
    mkdirSync(runPath(ctx.run, RUN_FILES.outputs), { recursive: true });
    // Sealed: promotion and the report trust its gate and its lists only under the store key.
    writeFileAtomic(path, `${JSON.stringify(withSeal("result", ctx.run.runId, result), null, 2)}\n`);
  }
  return { result, path };
}

export function resultPath(run: RunInfo): string {
  return runPath(run, RUN_FILES.outputs, RESULT_FILE);
}

interface SpanOutcome {
  path: string;
  span: SpanRecord | undefined;
  snapshot: Snapshot | undefined;
  diagnostics: Unresolved[];
}

/** Assembles from an already-loaded context (verify and promote reuse it). */
export async function assemble(ctx: EvidenceContext, options: AssembleOptions = {}): Promise<AssemblyResult> {
  const records = loadRecords(ctx.run);
  const unresolved: Unresolved[] = [];
  const accepted: AcceptedSpan[] = [];
  const outcomes: RecordOutcome[] = [];
  const quotes: AssemblyResult["quotes"] = [];
  const acceptedSourcesByClaim = new Map<string, Set<string>>();
  const sourcesUsed = new Set<string>();
  let spanCount = 0;

  for (const problem of records.problems) {
    unresolved.push(
      diagnostic("SCHEMA_ERROR", problem.message, problem.path, problem.recordId, problem.path),
    );
  }

  for (const artifact of records.artifacts) {
    const recordLevel: Unresolved[] = [];
    const spanLevel: Unresolved[] = [];
    const cleanByItem: { item: string; outcome: SpanOutcome }[][] = [];
    const verifiedSlices: string[] = [];
    const artifactSources = new Set<string>();
    let unbackedOwing = 0;
    let backedItems = 0;

    if (artifact.kind === "claim" && artifact.verdict !== "supported") {
      recordLevel.push(
        diagnostic(
          "UNSUPPORTED_VERDICT",
          `${artifact.record} (${artifact.id}): the verifier's verdict is '${artifact.verdict}'`,
          artifact.record,
          artifact.id,
          `${artifact.record}.verdict`,
        ),
      );
    }

    for (const item of artifact.items) {
      const clean: { item: string; outcome: SpanOutcome }[] = [];
      spanCount += item.spans.length;
      if (item.spans.length === 0 && item.owesSpans) {
        spanLevel.push(
          diagnostic(
            "NO_SPANS",
            `${item.path}: ${item.owesBecause} carries no spans, so it is unverified`,
            artifact.record,
            artifact.id,
            item.path,
          ),
        );
      }
      for (const slot of item.spans) {
        const outcome = checkSpan(ctx, artifact, slot);
        if (outcome.snapshot) {
          artifactSources.add(outcome.snapshot.source_id);
          sourcesUsed.add(outcome.snapshot.source_id);
          const span = outcome.span!;
          const index = ctx.store.load(span.source_id);
          if (
            index.ok &&
            inRange(span, outcome.snapshot.length) &&
            span.end - span.start <= MAX_SPAN_CODE_POINTS
          ) {
            verifiedSlices.push(index.index.slice(span.start, span.end));
          }
        }
        if (outcome.diagnostics.length > 0) spanLevel.push(...outcome.diagnostics);
        else clean.push({ item: item.field, outcome });
      }
      if (clean.length > 0) backedItems++;
      else if (item.owesSpans) unbackedOwing++;
      cleanByItem.push(clean);
    }

    for (const quote of artifact.typedQuotes) {
      if (!verifiedSlices.includes(quote.text)) {
        recordLevel.push(
          diagnostic(
            "EXCERPT_MISMATCH",
            `${quote.path}: the quote is not the text of any of the record's spans (quotes derive from spans)`,
            artifact.record,
            artifact.id,
            quote.path,
          ),
        );
      }
    }

    for (const cited of artifact.urls) {
      const problem = urlProblem(ctx, cited.url, [...artifactSources]);
      if (problem)
        recordLevel.push(
          diagnostic(
            "URL_NOT_RETRIEVED",
            `${cited.path}: ${problem}`,
            artifact.record,
            artifact.id,
            cited.path,
          ),
        );
    }

    const status: RecordStatus =
      recordLevel.length > 0 || (unbackedOwing > 0 && backedItems === 0)
        ? "rejected"
        : unbackedOwing > 0
          ? "partial"
          : "accepted";
    let acceptedHere = 0;
    const recordQuotes: string[] = [];
    if (status !== "rejected") {
      for (const clean of cleanByItem) {
        for (const { item, outcome } of clean) {
          const entry = await acceptedEntry(ctx, artifact, item, outcome);
          accepted.push(entry);
          recordQuotes.push(entry.excerpt);
          acceptedHere++;
          if (artifact.kind === "claim") {
            const set = acceptedSourcesByClaim.get(artifact.id) ?? new Set<string>();
            set.add(entry.source_id);
            acceptedSourcesByClaim.set(artifact.id, set);
          }
        }
      }
    }
    if (artifact.kind === "extraction" && status !== "rejected") {
      quotes.push({ record: artifact.record, id: artifact.id, quotes: recordQuotes });
    }
    const mine = [...recordLevel, ...spanLevel];
    unresolved.push(...mine);
    outcomes.push({
      record: artifact.record,
      kind: artifact.kind,
      id: artifact.id,
      text: artifact.text,
      status,
      accepted_spans: acceptedHere,
      unresolved: mine.length,
    });
  }

  const acceptedSources = new Set(accepted.map((a) => a.source_id));
  const claimIds = new Set(records.artifacts.filter((a) => a.kind === "claim").map((a) => a.id));
  for (const footnote of records.footnotes) {
    unresolved.push(...checkFootnote(ctx, footnote, acceptedSources, acceptedSourcesByClaim, claimIds));
  }

  const counts: Partial<Record<ReasonCode, number>> = {};
  for (const code of REASON_CODES) {
    const n = unresolved.filter((u) => u.code === code).length;
    if (n > 0) counts[code] = n;
  }
  const integrity = unresolved.filter((u) => isIntegrityFailure(u.code)).length;
  const enabled = options.gate ?? ctx.run.gate;
  const verdict = unresolved.length === 0 ? "pass" : "fail";
  return {
    schema_version: RESULT_SCHEMA_VERSION,
    run_id: ctx.run.runId,
    run_created_at: ctx.run.createdAt,
    assembled_at: (options.now ?? new Date()).toISOString(),
    gate: {
      enabled,
      verdict,
      integrity_failures: integrity,
      blocking: (enabled && verdict === "fail") || integrity > 0,
    },
    accepted,
    records: outcomes,
    quotes,
    diagnostics: { unresolved, counts, invalid_events: ctx.log.invalid },
    summary: {
      records: records.artifacts.length,
      spans: spanCount,
      accepted: accepted.length,
      unresolved: unresolved.length,
      sources: sourcesUsed.size,
    },
  };
}

function checkSpan(
  ctx: EvidenceContext,
  artifact: Artifact,
  slot: Artifact["items"][number]["spans"][number],
): SpanOutcome {
  const out: SpanOutcome = { path: slot.path, span: undefined, snapshot: undefined, diagnostics: [] };
  const fail = (code: ReasonCode, message: string, span?: SpanRecord) => {
    const d = diagnostic(code, `${slot.path}: ${message}`, artifact.record, artifact.id, slot.path);
    if (span) {
      d.source_id = span.source_id;
      d.start = span.start;
      d.end = span.end;
    }
    out.diagnostics.push(d);
  };
  if ("problem" in slot) {
    out.diagnostics.push(diagnostic("SCHEMA_ERROR", slot.problem, artifact.record, artifact.id, slot.path));
    return out;
  }
  const span = slot.span;
  out.span = span;
  if (artifact.evidenceId !== null && span.evidence_id !== artifact.evidenceId) {
    fail(
      "SCHEMA_ERROR",
      `evidence_id ${span.evidence_id} differs from the record's ${artifact.evidenceId}`,
      span,
    );
    return out;
  }
  const loaded = ctx.store.load(span.source_id);
  if (!loaded.ok) {
    fail(loaded.code, loaded.message, span);
    return out;
  }
  const snapshot = loaded.snapshot;
  if (snapshot.evidence_id !== null && snapshot.evidence_id !== span.evidence_id) {
    fail(
      "UNKNOWN_SOURCE",
      `${span.source_id} is registered for ${snapshot.evidence_id}, not ${span.evidence_id}`,
      span,
    );
    return out;
  }
  out.snapshot = snapshot;
  const ranged = inRange(span, snapshot.length);
  if (!ranged) {
    fail(
      "SPAN_OUT_OF_RANGE",
      `[${span.start}, ${span.end}) is not within 0 <= start < end <= ${snapshot.length} code points`,
      span,
    );
  }
  const tooLong = span.end - span.start > MAX_SPAN_CODE_POINTS;
  if (tooLong) {
    fail(
      "SPAN_TOO_LONG",
      `${span.end - span.start} code points, over the limit of ${MAX_SPAN_CODE_POINTS}`,
      span,
    );
  }
  if (span.access !== snapshot.access) {
    fail("ACCESS_MISMATCH", `access '${span.access}' but the snapshot's is '${snapshot.access}'`, span);
  }
  if (
    ranged &&
    !tooLong &&
    span.excerpt !== undefined &&
    span.excerpt !== loaded.index.slice(span.start, span.end)
  ) {
    fail(
      "EXCERPT_MISMATCH",
      `the written excerpt differs from the snapshot text at these offsets; ${describeFirstDifference(
        loaded.index.slice(span.start, span.end),
        span.excerpt,
      )}`,
      span,
    );
  }
  const paper = paperProblem(span, snapshot, artifact.literature);
  if (paper) fail("NO_PAPER_ID", paper, span);
  const freshness = ctx.judge.judge(snapshot, snapshot.content_hash.slice("sha256:".length));
  if (!freshness.fresh) fail(freshness.code, freshness.message, span);
  if (snapshot.asset && (freshness.fresh || freshness.code !== "ASSET_HASH_MISMATCH")) {
    const check = ctx.assets.check(snapshot.asset);
    if (!check.ok) fail("ASSET_HASH_MISMATCH", check.message, span);
  }
  return out;
}

async function acceptedEntry(
  ctx: EvidenceContext,
  artifact: Artifact,
  field: string,
  outcome: SpanOutcome,
): Promise<AcceptedSpan> {
  const span = outcome.span!;
  const snapshot = outcome.snapshot!;
  const loaded = ctx.store.load(span.source_id);
  if (!loaded.ok) throw new Error("a checked snapshot failed to reload");
  const index = loaded.index;
  const freshness = ctx.judge.judge(snapshot, snapshot.content_hash.slice("sha256:".length));
  const place = await ctx.locator.locate(snapshot, index, span.start, span.end);
  const entry: AcceptedSpan = {
    record: artifact.record,
    kind: artifact.kind,
    record_id: artifact.id,
    field,
    span: outcome.path,
    claim: span.claim,
    evidence_id: span.evidence_id,
    source_id: span.source_id,
    start: span.start,
    end: span.end,
    access: snapshot.access,
    excerpt: index.slice(span.start, span.end),
    section: ctx.sections.sectionAt(snapshot, index, span.start),
    page: place.page,
    url: snapshot.url,
    title: snapshot.title,
    fresh_event: freshness.fresh ? freshness.eventId : "",
  };
  if (place.pages) entry.pages = place.pages;
  if (snapshot.document) entry.boxes = place.boxes;
  if (place.boxes_note) entry.boxes_note = place.boxes_note;
  return entry;
}

function checkFootnote(
  ctx: EvidenceContext,
  footnote: Footnote,
  acceptedSources: Set<string>,
  byClaim: Map<string, Set<string>>,
  claimIds: Set<string>,
): Unresolved[] {
  const out: Unresolved[] = [];
  const at = (code: ReasonCode, message: string) => {
    const d = diagnostic(code, `${footnote.path}: ${message}`, footnote.path, footnote.id, footnote.path);
    d.source_id = footnote.source_id;
    out.push(d);
  };
  if (footnote.claim_id !== null && !claimIds.has(footnote.claim_id)) {
    at("SCHEMA_ERROR", `claim_id ${footnote.claim_id} names no claim in claims.json`);
    return out;
  }
  const allowed =
    footnote.claim_id !== null ? (byClaim.get(footnote.claim_id) ?? new Set<string>()) : acceptedSources;
  if (!allowed.has(footnote.source_id)) {
    const scope =
      footnote.claim_id !== null ? `claim ${footnote.claim_id}'s accepted evidence` : "any accepted evidence";
    at("SOURCE_OUTSIDE_ACCEPTED", `cites ${footnote.source_id}, which backs no span of ${scope}`);
  }
  if (footnote.url !== null) {
    const problem = urlProblem(ctx, footnote.url, [footnote.source_id]);
    if (problem) at("URL_NOT_RETRIEVED", problem);
  }
  return out;
}

/** Why a cited URL does not count as retrieved for these sources, or undefined when it does. */
function urlProblem(ctx: EvidenceContext, cited: string, sourceIds: string[]): string | undefined {
  const want = normaliseUrl(cited);
  for (const sourceId of sourceIds) {
    const loaded = ctx.store.load(sourceId);
    if (!loaded.ok) continue;
    const snapshot = loaded.snapshot;
    const names = new Set([
      normaliseUrl(snapshot.url),
      snapshot.final_url ? normaliseUrl(snapshot.final_url) : "",
    ]);
    if (!names.has(want)) continue;
    const fetched = ctx.judge
      .fetchEvents(sourceId)
      .some((e) => e.fresh && e.url !== null && normaliseUrl(e.url) === normaliseUrl(snapshot.url));
    if (fetched) return undefined;
  }
  return `${cited} was not retrieved by a fetch in this run for the sources this record cites`;
}

function normaliseUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

function inRange(span: SpanRecord, length: number): boolean {
  return span.start >= 0 && span.start < span.end && span.end <= length;
}

/** Checks a span's evidence id against the snapshot's paper triple. */
function paperProblem(span: SpanRecord, snapshot: Snapshot, literature: boolean): string | undefined {
  const kind = paperIdKind(span.evidence_id);
  if (!kind) {
    return literature
      ? `a literature record cites ${span.evidence_id}, which is not a PMID, DOI or PMCID`
      : undefined;
  }
  const claimed = span.evidence_id.slice(kind.length + 1);
  const recorded = snapshot.paper?.[kind] ?? null;
  if (recorded === null) return `${span.source_id} records no ${kind} to confirm ${span.evidence_id}`;
  if (!samePaperId(kind, recorded, claimed)) {
    return `${span.source_id} records ${kind} ${recorded}, not ${claimed}`;
  }
  return undefined;
}

export function samePaperId(kind: "pmid" | "doi" | "pmcid", a: string, b: string): boolean {
  if (kind === "pmid") return a.trim() === b.trim();
  const norm = (s: string) => {
    const t = s.trim().toLowerCase();
    return kind === "pmcid" && !t.startsWith("pmc") ? `pmc${t}` : t;
  };
  return norm(a) === norm(b);
}

function diagnostic(
  code: ReasonCode,
  message: string,
  record: string | null,
  recordId: string | null,
  path: string,
): Unresolved {
  return { code, check: REASON_CHECK[code], message, record, record_id: recordId, path };
}
