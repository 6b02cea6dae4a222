/**
 * The documents the source and run operations of an evidence run return (`citeproof source ...` and
 * `citeproof run ... --json`): a snapshot's receipt with the event logged, a read window, the spans
 * found, and what assembling, verifying and promoting a run concluded. Offsets are in code points.
 */
import { z } from "zod";
import { PREFLIGHT_CODES } from "../../evidence/promote.js";
import { ACCESS_LEVELS, CHECK_IDS, EVENT_TYPES, ORIGINS, REASON_CODES } from "../../evidence/reasons.js";

const count = z.int().nonnegative();
const codePoint = z.int().nonnegative();

const event = z.looseObject({
  schema_version: z.int(),
  event_id: z.string(),
  run_id: z.string(),
  type: z.enum(EVENT_TYPES),
  source_id: z.string(),
  url: z.string().nullable(),
  at: z.string(),
  fresh: z.boolean(),
  sha256: z.string(),
  actor: z.string(),
  detail: z.string(),
  asset_sha256: z.string().optional(),
});

/** `source fetch`, `source local`, `source register`: the snapshot described and the event logged. */
export const sourceReceiptOutput = z.looseObject({
  source_id: z.string(),
  content_hash: z.string(),
  url: z.string(),
  final_url: z.string().nullable(),
  title: z.string().nullable(),
  access: z.enum(ACCESS_LEVELS),
  origin: z.enum(ORIGINS),
  evidence_id: z.string().nullable(),
  paper: z
    .looseObject({ pmid: z.string().nullable(), doi: z.string().nullable(), pmcid: z.string().nullable() })
    .nullable(),
  asset: z.looseObject({ path: z.string(), sha256: z.string(), bytes: count }).nullable(),
  media_type: z.string(),
  pages: count.nullable(),
  length: codePoint,
  created: z.boolean(),
  event,
});

/** `source read`: a verified window [start, end) of a snapshot's text. */
export const sourceReadOutput = z.looseObject({
  source_id: z.string(),
  content_hash: z.string(),
  access: z.enum(ACCESS_LEVELS),
  url: z.string(),
  length: codePoint,
  start: codePoint,
  end: codePoint,
  text: z.string(),
  event_id: z.string(),
});

/** `source spans`: where a snapshot says something, each hit with the window around it. */
export const sourceSpansOutput = z.looseObject({
  source_id: z.string(),
  access: z.enum(ACCESS_LEVELS),
  length: codePoint,
  event_id: z.string(),
  query: z.string(),
  method: z.enum(["exact", "approximate", "none"]),
  total: count,
  hits: z.array(
    z.looseObject({
      start: codePoint,
      end: codePoint,
      window_start: codePoint,
      window_end: codePoint,
      window: z.string(),
      method: z.enum(["exact", "approximate"]),
      score: z.number().min(0).max(1),
    }),
  ),
});

const passFail = z.enum(["pass", "fail"]);

/** `run assemble`: where result.json was written, the gate, the summary and what is unresolved. */
export const runAssembleOutput = z.looseObject({
  result: z.string(),
  gate: z.looseObject({
    enabled: z.boolean(),
    verdict: passFail,
    integrity_failures: count,
    blocking: z.boolean(),
  }),
  summary: z.looseObject({
    records: count,
    spans: count,
    accepted: count,
    unresolved: count,
    sources: count,
  }),
  diagnostics: z.looseObject({
    counts: z.partialRecord(z.enum(REASON_CODES), count),
    unresolved: z.array(
      z.looseObject({
        code: z.enum(REASON_CODES),
        check: z.enum(CHECK_IDS),
        message: z.string(),
        record: z.string().nullable(),
        record_id: z.string().nullable(),
        path: z.string(),
        source_id: z.string().optional(),
        start: codePoint.optional(),
        end: codePoint.optional(),
      }),
    ),
  }),
});

const failure = <Code extends readonly [string, ...string[]]>(codes: Code) =>
  z.looseObject({
    code: z.enum(codes),
    message: z.string(),
    path: z.string().optional(),
    source_id: z.string().optional(),
  });

/** `run verify`: where verification.json was written, and its checks. */
export const runVerifyOutput = z.looseObject({
  verification: z.string(),
  schema_version: z.int(),
  run_id: z.string(),
  verified_at: z.string(),
  result_sha256: z.string().nullable(),
  verdict: passFail,
  checks: z.array(
    z.looseObject({
      id: z.enum(CHECK_IDS),
      status: passFail,
      meaning: z.string(),
      counts: z.record(z.string(), count),
      failures: z.array(failure([...REASON_CODES, "RESULT_MISSING", "RESULT_STALE", "STRAY_FILE"])),
    }),
  ),
});

/** `run promote`: the preflight (mode check) or the promotion (mode write), and what refused it. */
export const runPromoteOutput = z.looseObject({
  run_id: z.string(),
  mode: z.enum(["check", "write"]),
  ok: z.boolean(),
  concepts: z.array(z.looseObject({ id: z.string(), file: z.string(), evidence: count })),
  excerpts_checked: count,
  snapshots_checked: count,
  failures: z.array(failure([...REASON_CODES, ...PREFLIGHT_CODES])),
  written_to: z.string().nullable(),
});
