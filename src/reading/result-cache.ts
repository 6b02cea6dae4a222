/**
 * Results of quotation and page records kept between runs, content-addressed: each result is kept
 * under the digest of its record (the record's JSON), in one of RESULT_BUCKETS records of the document's
 * extraction cache entry (so bound to the PDF's bytes), named with the derivation key of the checks'
 * code (util/derivation-graph.ts) and a digest of the runtime's Unicode and regular expression engine. A change to the code, the document or the
 * record misses, and a miss is checked as ever. A quotation or page record's result depends on
 * nothing else: the document's text (cached the same way) and the record.
 *
 * A run's new results are appended to its process's journal (document/sealed-journal.ts: one write, no
 * rename), read by every later run beside the buckets, and folded into the buckets when the journals grow
 * (foldJournals). What a torn or refused frame held is only missed, and checked again.
 */
import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { deserialize, serialize } from "node:v8";
import type { EvidenceRecord } from "../checks/evidence-record.js";
import type { CheckResult } from "../checks/result.js";
import type { ExtractionCache } from "../document/cache.js";
import type { Appended, SealedJournal } from "../document/sealed-journal.js";
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
  return new KeptResults(resultStoreOf(cache, name), name);
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
  /** The journal a run's new results are appended to; undefined when nothing is written. */
  journal: SealedJournal | undefined;
}

/** The store of a document's cache entry: its records, their stamps and the results journal. */
export function resultStoreOf(cache: ExtractionCache, name = resultsRecordName()): ResultStore {
  return {
    place: cache.dir,
    journal: cache.journal(name),
    stamp: (record) => cache.recordStamp(record),
    read: (record) => cache.readRecord<unknown>(record),
    write: (record, value) => {
      try {
        cache.writeRecord(record, value);
      } catch {
        // An unwritable cache slows the next run; it never changes a result.
      }
    },
  };
}

/**
 * A writer's journal holding more than this many bytes is folded into the buckets (about a thousand
 * results): a fold rewrites every bucket, so a resident server pays it once in some fifty calls, and a
 * run reading the journal whole reads at most this much of it.
 */
const FOLD_JOURNAL_BYTES = 2 ** 20;
/** More journal files than this (one-shot runs leave one each) are folded into the buckets. */
const FOLD_JOURNAL_FILES = 8;

/** At most this many results are remembered across runs in this process, in buckets (least recently used go). */
const REMEMBERED_RESULTS = 10_000;
/**
 * Buckets read or written in this process, by place and name, with their file's stamp: a resident
 * server's calls on one paper read each bucket's file once, then only stat it. Only values read and
 * unsealed from the store or checked in this process are remembered, and none is handed out itself
 * (get returns a copy) or changed once remembered, so no caller can change what the next run is
 * answered with.
 */
const remembered = new Map<string, { stamp: string; kept: ReadonlyMap<string, CheckResult> }>();
let rememberedResults = 0;

function remember(key: string, stamp: string | undefined, kept: ReadonlyMap<string, CheckResult>): void {
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

/** The results of one journal file read so far in this process: up to `end`, when the file was `size`. */
interface JournalRead {
  end: number;
  size: number;
  kept: Map<string, CheckResult>;
}

/**
 * Journal files read in this process, by place and journal, then by file: a resident server reads
 * only what was appended since. A file no longer listed was folded into the buckets (or its fold cut
 * short, and it is read again when listed again); what was read from it is dropped.
 */
const journalsRead = new Map<string, Map<string, JournalRead>>();
/** Places and journals a fold of this process is under way for. */
const folding = new Set<string>();

/** One bucket's kept results: from this process's memory while its file is unchanged, else read. */
function bucketResults(store: ResultStore, name: string): ReadonlyMap<string, CheckResult> {
  const key = `${store.place}\0${name}`;
  // The stamp taken before the read: a file replaced meanwhile is read again next time.
  const stamp = store.stamp(name);
  const known = remembered.get(key);
  if (known && stamp !== undefined && known.stamp === stamp) {
    // Most recently used last.
    remembered.delete(key);
    remembered.set(key, known);
    return known.kept;
  }
  const kept = parseStored(store.read(name)) ?? new Map<string, CheckResult>();
  remember(key, stamp, kept);
  return kept;
}

/** A stored {keys, results} value's results by key; undefined when anything in it is of the wrong shape. */
function parseStored(value: unknown): Map<string, CheckResult> | undefined {
  const { keys, results } = (value ?? {}) as Partial<StoredResults>;
  if (!Array.isArray(keys) || !Array.isArray(results) || keys.length !== results.length) return undefined;
  const kept = new Map<string, CheckResult>();
  for (let i = 0; i < keys.length; i++) {
    const result = results[i];
    if (typeof keys[i] !== "string" || !isResult(result)) return undefined;
    kept.set(keys[i], result);
  }
  return kept;
}

/** The results of a journal frame's payload; undefined when it is not a stored value of results. */
function parseFrame(payload: Uint8Array): Map<string, CheckResult> | undefined {
  try {
    const kept = parseStored(deserialize(payload));
    if (kept) for (const key of kept.keys()) if (bucketOfKey(key) === undefined) return undefined;
    return kept;
  } catch {
    return undefined;
  }
}

/** The bucket a record's key falls in (its digest's first byte), or undefined for no key of ours. */
function bucketOfKey(key: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{32}$/.test(key)) return undefined;
  return Buffer.from(key.slice(0, 4), "base64url")[0] % RESULT_BUCKETS;
}

/**
 * The results kept for a document, by record: what the journals hold (the ones read before, then what
 * was appended since) and each bucket read once when a record of it is first asked for (or taken from
 * this process's memory when its file is unchanged). A run's new results are appended to the
 * journal in one frame; the journals are folded into the buckets when they grow.
 */
export class KeptResults {
  private readonly buckets = new Map<number, ReadonlyMap<string, CheckResult>>();
  private readonly added = new Map<string, CheckResult>();
  private journals: Map<string, JournalRead> | undefined;
  private journalFiles = 0;

  constructor(
    private readonly store: ResultStore,
    private readonly name: string,
  ) {}

  private get journalKey(): string {
    return `${this.store.place}\0${this.name}`;
  }

  /** The journal files' results, what was appended since this process last read them read now. */
  private journalResults(): Map<string, JournalRead> {
    if (this.journals) return this.journals;
    const journal = this.store.journal;
    let known = journalsRead.get(this.journalKey);
    if (!known) {
      known = new Map();
      journalsRead.set(this.journalKey, known);
    }
    this.journals = known;
    if (!journal) return known;
    const files = journal.files();
    this.journalFiles = files.length;
    const listed = new Set<string>();
    for (const file of files) {
      listed.add(file.id);
      let read = known.get(file.id);
      if (read && file.size < read.end) read = undefined;
      if (!read) {
        read = { end: 0, size: 0, kept: new Map() };
        known.set(file.id, read);
      }
      // Unchanged since read (whole, or up to a frame cut short or refused: not parsed again).
      if (file.size === read.size) continue;
      const frames = journal.read(file, read.end);
      for (const payload of frames.values) {
        const kept = parseFrame(payload);
        if (kept) for (const [key, result] of kept) read.kept.set(key, result);
      }
      read.end = frames.end;
      read.size = file.size;
    }
    for (const id of known.keys()) if (!listed.has(id)) known.delete(id);
    return known;
  }

  private bucket(n: number): ReadonlyMap<string, CheckResult> {
    let kept = this.buckets.get(n);
    if (!kept) {
      kept = bucketResults(this.store, bucketName(this.name, n));
      this.buckets.set(n, kept);
    }
    return kept;
  }

  private fromJournals(key: string): CheckResult | undefined {
    for (const read of this.journalResults().values()) {
      const result = read.kept.get(key);
      if (result) return result;
    }
    return undefined;
  }

  get(record: EvidenceRecord): CheckResult | undefined {
    if (!keepsResult(record)) return undefined;
    const { key, bucket } = recordKey(record);
    const result = this.added.get(key) ?? this.fromJournals(key) ?? this.bucket(bucket).get(key);
    return result && structuredClone(result);
  }

  add(record: EvidenceRecord, result: CheckResult): void {
    if (!keepsResult(record)) return;
    // A copy, which the caller cannot change.
    this.added.set(recordKey(record).key, structuredClone(result));
  }

  /**
   * Appends the results this run added to the journal, one frame; folds the journals into the buckets
   * (after this call, a step at a time) when this writer's file or their number has grown past the bound.
   */
  keep(): void {
    const journal = this.store.journal;
    if (!journal || this.added.size === 0) return;
    const added = new Map(this.added);
    this.added.clear();
    let at: Appended;
    try {
      at = journal.append(
        serialize({ keys: [...added.keys()], results: [...added.values()] } satisfies StoredResults),
      );
    } catch {
      // An unwritable cache slows the next run; it never changes a result.
      return;
    }
    // Remembered as read when what came before it in the file was.
    const known = this.journalResults();
    const read = known.get(at.id);
    if (read ? read.end === at.start : at.start === 0) {
      const mine = read ?? { end: 0, size: 0, kept: new Map() };
      for (const [key, result] of added) mine.kept.set(key, result);
      mine.end = at.end;
      mine.size = at.end;
      known.set(at.id, mine);
    }
    if (at.end > FOLD_JOURNAL_BYTES || this.journalFiles > FOLD_JOURNAL_FILES) {
      foldJournals(this.store, this.name).catch(() => {
        // A fold cut short leaves its claimed files: they are read, and folded by a later fold.
      });
    }
  }
}

/**
 * Folds a document's result journals into its buckets: takes the fold's lock (another fold under way,
 * nothing is done), claims every journal file, merges each bucket's results with the journals' (the
 * journals' newer, the most recent MAX_KEPT_PER_BUCKET kept), writes the buckets one per turn of the
 * event loop (calls in flight run between them), and removes the claimed files. Whether it folded.
 */
export async function foldJournals(store: ResultStore, name: string): Promise<boolean> {
  const journal = store.journal;
  const key = `${store.place}\0${name}`;
  if (!journal || folding.has(key)) return false;
  folding.add(key);
  let release: (() => void) | undefined;
  try {
    await nextTurn();
    release = journal.tryLock();
    if (!release) return false;
    const claimed = journal.files().flatMap((file) => journal.claim(file) ?? []);
    const byBucket = new Map<number, Map<string, CheckResult>>();
    for (const file of claimed) {
      for (const payload of journal.read(file, 0).values) {
        for (const [k, result] of parseFrame(payload) ?? []) {
          const n = bucketOfKey(k) as number;
          const kept = byBucket.get(n) ?? new Map<string, CheckResult>();
          byBucket.set(n, kept);
          kept.delete(k);
          kept.set(k, result);
        }
      }
    }
    for (const [n, fromJournals] of byBucket) {
      const bucket = bucketName(name, n);
      const merged = new Map(bucketResults(store, bucket));
      for (const [k, result] of fromJournals) {
        merged.delete(k);
        merged.set(k, result);
      }
      const entries = [...merged].slice(-MAX_KEPT_PER_BUCKET);
      const before = store.stamp(bucket);
      store.write(bucket, {
        keys: entries.map(([k]) => k),
        results: entries.map(([, result]) => result),
      } satisfies StoredResults);
      const after = store.stamp(bucket);
      // Not written (a full disk, say): the claimed files stay, read as journals, folded next time.
      if (after === undefined || after === before) return false;
      remember(`${store.place}\0${bucket}`, after, new Map(entries));
      await nextTurn();
    }
    for (const file of claimed) journal.remove(file);
    return true;
  } finally {
    release?.();
    folding.delete(key);
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
