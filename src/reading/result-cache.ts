/**
 * Results of quotation and page records kept between runs, content-addressed: each result is kept
 * under the digest of its record (the record's JSON), in a record of the document's extraction cache
 * entry (so bound to the PDF's bytes), named with the derivation key of the checks' code
 * (util/derivation-graph.ts) and a digest of the runtime's Unicode and regular expression engine. A change to the code, the document or the
 * record misses, and a miss is checked as ever. A quotation or page record's result depends on
 * nothing else: the document's text (cached the same way) and the record.
 */
import { createHash } from "node:crypto";
import type { EvidenceRecord } from "../checks/evidence-record.js";
import type { CheckResult } from "../checks/result.js";
import type { DerivedRecords } from "../text/derived-records.js";
import { derivationKey } from "../util/derivation.js";

/** At most this many results are kept per document (the most recent). */
const MAX_KEPT = 20_000;

/**
 * The name results are kept under: the derivation key of the checks' code and a digest of the runtime's
 * Unicode and regular expression engine (`\p{L}` and case folding follow its tables).
 */
export function resultsRecordName(): string {
  const runtime = createHash("sha256")
    .update(`${process.versions.v8}\0${process.versions.unicode ?? ""}\0${process.versions.icu ?? ""}`)
    .digest("hex")
    .slice(0, 8);
  return `results-${derivationKey("results")}-${runtime}`;
}

/** Whether a record's result may be kept: quotation and page records (the others need the anchors). */
export function keepsResult(record: EvidenceRecord): boolean {
  return record.kind === "quotation" || record.kind === "page";
}

function recordKey(record: EvidenceRecord): string {
  return createHash("sha256").update(JSON.stringify(record)).digest("base64url").slice(0, 32);
}

interface StoredResults {
  keys: string[];
  results: CheckResult[];
}

/** The results kept for a document, by record; read once, written back with what a run adds. */
export class KeptResults {
  private readonly kept = new Map<string, CheckResult>();
  private added = false;

  constructor(
    private readonly records: DerivedRecords,
    private readonly name: string,
  ) {
    const stored = records.read(name) as Partial<StoredResults> | undefined;
    const { keys, results } = stored ?? {};
    if (!Array.isArray(keys) || !Array.isArray(results) || keys.length !== results.length) return;
    for (let i = 0; i < keys.length; i++) {
      const result = results[i];
      if (typeof keys[i] !== "string" || !isResult(result)) {
        this.kept.clear();
        return;
      }
      this.kept.set(keys[i], result);
    }
  }

  get(record: EvidenceRecord): CheckResult | undefined {
    return keepsResult(record) ? this.kept.get(recordKey(record)) : undefined;
  }

  add(record: EvidenceRecord, result: CheckResult): void {
    if (!keepsResult(record)) return;
    const key = recordKey(record);
    // Re-added last, so the most recent are the ones kept past the limit.
    this.kept.delete(key);
    this.kept.set(key, result);
    this.added = true;
  }

  /** Writes the results back when this run added any. */
  keep(): void {
    if (!this.added) return;
    const entries = [...this.kept].slice(-MAX_KEPT);
    this.records.write(this.name, {
      keys: entries.map(([key]) => key),
      results: entries.map(([, result]) => result),
    } satisfies StoredResults);
    this.added = false;
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
