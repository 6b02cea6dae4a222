/**
 * Results of quotation and page records kept between runs, content-addressed: each result is kept
 * under the digest of its record (the record's JSON), in one of RESULT_BUCKETS records of the document's
 * extraction cache entry (so bound to the PDF's bytes), named with the derivation key of the checks'
 * code (util/derivation-graph.ts) and a digest of the runtime's Unicode and regular expression engine. A change to the code, the document or the
 * record misses, and a miss is checked as ever. A quotation or page record's result depends on
 * nothing else: the document's text (cached the same way) and the record.
 */
import { createHash } from "node:crypto";
import type { EvidenceRecord } from "../checks/evidence-record.js";
import type { CheckResult } from "../checks/result.js";
import type { ExtractionCache } from "../document/cache.js";
import type { DerivedRecords } from "../text/derived-records.js";
import { derivationKey } from "../util/derivation.js";

/**
 * A document's results are kept in this many records (buckets), a result in the one its record's digest
 * names: a run reads and writes back only the buckets its records fall in, so what a call costs does not
 * grow with every result kept before it (an agent's server verifies call after call on one paper).
 */
export const RESULT_BUCKETS = 64;
/** At most this many results are kept per bucket (the most recent): about 20,000 per document. */
const MAX_KEPT_PER_BUCKET = 313;

/**
 * The name results are kept under: the derivation key of the checks' code (the PDF path's, or a flow
 * source's reader and checks) and a digest of the runtime's Unicode and regular expression engine
 * (`\p{L}` and case folding follow its tables).
 */
export function resultsRecordName(kind: "results" | "flow-results" = "results"): string {
  const runtime = createHash("sha256")
    .update(`${process.versions.v8}\0${process.versions.unicode ?? ""}\0${process.versions.icu ?? ""}`)
    .digest("hex")
    .slice(0, 8);
  return `${kind}-${derivationKey(kind)}-${runtime}`;
}

/** The results kept in a document's cache entry under `name` (resultsRecordName). */
export function keptResultsIn(cache: ExtractionCache, name: string): KeptResults {
  return new KeptResults(
    {
      place: cache.dir,
      stamp: (record) => cache.recordStamp(record),
      read: (record) => cache.readRecord<unknown>(record),
      write: (record, value) => {
        try {
          cache.writeRecord(record, value);
        } catch {
          // An unwritable cache slows the next run; it never changes a result.
        }
      },
    },
    name,
  );
}

/** Whether a record's result may be kept: quotation and page records (the others need the anchors). */
export function keepsResult(record: EvidenceRecord): boolean {
  return record.kind === "quotation" || record.kind === "page";
}

/** Where a record's result is kept: its key (a digest of the record) and the bucket the key falls in. */
export function recordKey(record: EvidenceRecord): { key: string; bucket: number } {
  const digest = createHash("sha256").update(JSON.stringify(record)).digest();
  return { key: digest.toString("base64url").slice(0, 32), bucket: digest[0] % RESULT_BUCKETS };
}

/** The record a bucket of results is kept under: `results-<code digest>-<bucket, two digits>`. */
export function bucketName(name: string, bucket: number): string {
  return `${name}-${String(bucket).padStart(2, "0")}`;
}

interface StoredResults {
  keys: string[];
  results: CheckResult[];
}

/** Where a document's kept results are stored, and a stamp of each stored record's file. */
export interface ResultStore extends DerivedRecords {
  /** The store's place (a cache entry's folder): buckets are remembered per place and name. */
  place: string;
  /**
   * What identifies the record's file as written (device, inode, size, change time), or undefined when
   * it is absent: an unchanged stamp means an unchanged file, so a bucket read before is not read again.
   */
  stamp(name: string): string | undefined;
}

/** At most this many results are remembered across runs in this process, in buckets (least recently used go). */
const REMEMBERED_RESULTS = 10_000;
/**
 * Buckets read or written in this process, by place and name, with their file's stamp: a resident
 * server's calls on one paper read each bucket's file once, then only stat it. Only values read and
 * unsealed from the store or checked in this process are remembered, and none is handed out itself
 * (get returns a copy), so no caller can change what the next run is answered with.
 */
const remembered = new Map<string, { stamp: string; kept: Map<string, CheckResult> }>();
let rememberedResults = 0;

function remember(key: string, stamp: string | undefined, kept: Map<string, CheckResult>): void {
  const old = remembered.get(key);
  if (old) {
    remembered.delete(key);
    rememberedResults -= old.kept.size;
  }
  if (stamp === undefined) return;
  remembered.set(key, { stamp, kept });
  rememberedResults += kept.size;
  for (const [k, v] of remembered) {
    if (rememberedResults <= REMEMBERED_RESULTS) break;
    remembered.delete(k);
    rememberedResults -= v.kept.size;
  }
}

/**
 * The results kept for a document, by record: each bucket read once when a record of it is first asked
 * for (or taken from this process's memory when its file is unchanged), and written back with what a
 * run added to it.
 */
export class KeptResults {
  private readonly buckets = new Map<number, Map<string, CheckResult>>();
  private readonly added = new Set<number>();

  constructor(
    private readonly records: DerivedRecords | ResultStore,
    private readonly name: string,
  ) {}

  private memoryKey(bucket: string): string | undefined {
    return "place" in this.records ? `${this.records.place}\0${bucket}` : undefined;
  }

  private stamp(bucket: string): string | undefined {
    return "stamp" in this.records ? this.records.stamp(bucket) : undefined;
  }

  private bucket(n: number): Map<string, CheckResult> {
    let kept = this.buckets.get(n);
    if (kept) return kept;
    const name = bucketName(this.name, n);
    const key = this.memoryKey(name);
    const stamp = key === undefined ? undefined : this.stamp(name);
    const known = key === undefined ? undefined : remembered.get(key);
    if (key !== undefined && known && stamp !== undefined && known.stamp === stamp) {
      // Most recently used last.
      remembered.delete(key);
      remembered.set(key, known);
      kept = new Map(known.kept);
      this.buckets.set(n, kept);
      return kept;
    }
    kept = this.read(name);
    this.buckets.set(n, kept);
    // The stamp taken before the read: a file replaced meanwhile is read again next time.
    if (key !== undefined) remember(key, stamp, new Map(kept));
    return kept;
  }

  private read(name: string): Map<string, CheckResult> {
    const kept = new Map<string, CheckResult>();
    const stored = this.records.read(name) as Partial<StoredResults> | undefined;
    const { keys, results } = stored ?? {};
    if (!Array.isArray(keys) || !Array.isArray(results) || keys.length !== results.length) return kept;
    for (let i = 0; i < keys.length; i++) {
      const result = results[i];
      if (typeof keys[i] !== "string" || !isResult(result)) {
        kept.clear();
        return kept;
      }
      kept.set(keys[i], result);
    }
    return kept;
  }

  get(record: EvidenceRecord): CheckResult | undefined {
    if (!keepsResult(record)) return undefined;
    const { key, bucket } = recordKey(record);
    const result = this.bucket(bucket).get(key);
    return result && structuredClone(result);
  }

  add(record: EvidenceRecord, result: CheckResult): void {
    if (!keepsResult(record)) return;
    const { key, bucket } = recordKey(record);
    const kept = this.bucket(bucket);
    // Re-added last, so the most recent are the ones kept past the limit; a copy, which the caller
    // cannot change.
    kept.delete(key);
    kept.set(key, structuredClone(result));
    this.added.add(bucket);
  }

  /** Writes back the buckets this run added to. */
  keep(): void {
    for (const n of this.added) {
      const entries = [...this.bucket(n)].slice(-MAX_KEPT_PER_BUCKET);
      const name = bucketName(this.name, n);
      this.records.write(name, {
        keys: entries.map(([key]) => key),
        results: entries.map(([, result]) => result),
      } satisfies StoredResults);
      const key = this.memoryKey(name);
      if (key !== undefined) remember(key, this.stamp(name), new Map(entries));
    }
    this.added.clear();
  }
}

/** A stored value of a result's shape: kind, verdict, reason and message strings and an evidence object. */
function isResult(value: unknown): value is CheckResult {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    (r.kind === "quotation" || r.kind === "page") &&
    typeof r.verdict === "string" &&
    typeof r.reason === "string" &&
    typeof r.message === "string" &&
    typeof r.evidence === "object" &&
    r.evidence !== null
  );
}
