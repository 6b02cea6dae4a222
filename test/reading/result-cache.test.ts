// Results kept between runs: a verify keeps each quotation and page record's result under the
// record's digest, in the document's cache entry, named by the derivation key of the checks' code; a later verify of
// the same records answers from them without reading a page, a changed record is checked again, a
// stored value of the wrong shape is refused, and other code reads other results.
import { createHash } from "node:crypto";
import { rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serialize } from "node:v8";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { EvidenceRecord } from "../../src/checks/evidence-record.js";
import { verifyEvidence } from "../../src/checks/verify.js";
import { CACHE_FORMAT, ExtractionCache } from "../../src/document/cache.js";
import { EXTRACTOR_VERSION } from "../../src/document/model.js";
import { openDocument } from "../../src/document/open.js";
import { verifyPdf } from "../../src/reading/cited-pages-first.js";
import {
  bucketName,
  foldJournals,
  recordKey,
  resultStoreOf,
  resultsRecordName,
} from "../../src/reading/result-cache.js";
import { derivationKey } from "../../src/util/derivation.js";
import { fixture, listFiles, tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let counter = 0;
const fresh = (name: string) => join(tmp.dir, `${name}-${counter++}`);

const PAPER = fixture("paper");
const RECORDS: EvidenceRecord[] = [
  { id: "a", kind: "quotation", page: 5, text: "reduced the mean squared error by roughly a third" },
  { id: "b", kind: "quotation", page: 3, text: "reduced the mean squared error by roughly a third" },
  { id: "c", kind: "page", page: 4 },
  { id: "d", kind: "quotation", page: 5, text: "words that stand on no page of this paper" },
];

const textFiles = (root: string) =>
  listFiles(root)
    .filter((f) => /(?:^|\/)(?:p\d{5}\.)?text\.bin$/.test(f))
    .map((f) => join(root, f));
const resultsFiles = (root: string) =>
  listFiles(root).filter((f) => /\/rec-results-[0-9a-f]{16}-[0-9a-f]{8}-\d{2}\.bin$/.test(f));
const journalFiles = (root: string) =>
  listFiles(root).filter((f) => /\/jrn-results-[0-9a-f]{16}-[0-9a-f]{8}\..*\.log$/.test(f));
type Stored = { keys: string[]; results: unknown[] };

/** Folds the results journals of the paper's cache entry into its buckets. */
async function fold(root: string, sha256: string): Promise<void> {
  expect(await foldJournals(resultStoreOf(new ExtractionCache(root, sha256)), resultsRecordName())).toBe(
    true,
  );
  expect(journalFiles(root)).toEqual([]);
}

/**
 * A verify of RECORDS, its results folded into the buckets, and the results as stored: each record's
 * bucket (its record name) and key.
 */
async function keptOnce(root: string) {
  const first = await verifyPdf(PAPER, RECORDS, { cacheDir: root });
  await fold(root, first.document.sha256);
  const name = (resultsFiles(root)[0] as string).replace(
    /^.*\/rec-(results-[0-9a-f]{16}-[0-9a-f]{8})-\d{2}\.bin$/,
    "$1",
  );
  const cache = new ExtractionCache(root, first.document.sha256);
  const kept = RECORDS.map((record) => {
    const { key, bucket } = recordKey(record);
    return { key, bucket: bucketName(name, bucket) };
  });
  const stored = (bucket: string) => cache.readRecord<Stored>(bucket);
  return { first, cache, kept, stored };
}

async function wholeDocumentReport(records: EvidenceRecord[]) {
  return verifyEvidence(await openDocument(PAPER, { noCache: true }), records);
}

describe("results kept between runs", () => {
  it("answers a second verify of the same records from the kept results, reading no page", async () => {
    const root = fresh("kept");
    const first = await verifyPdf(PAPER, RECORDS, { cacheDir: root });
    expect(first.results.map((r) => r.reason)).toEqual(["found", "wrong-page", "no-quotation", "absent"]);
    expect(first).toEqual(await wholeDocumentReport(RECORDS));
    expect(journalFiles(root).length).toBe(1);
    // The text layer gone: a run that read a page would extract it and store it again.
    for (const file of textFiles(root)) rmSync(file);
    expect(await verifyPdf(PAPER, RECORDS, { cacheDir: root })).toEqual(first);
    expect(textFiles(root)).toEqual([]);
    // The same answers in another order, and for some of the records.
    const reordered = [RECORDS[3], RECORDS[0]];
    expect((await verifyPdf(PAPER, reordered, { cacheDir: root })).results).toEqual([
      first.results[3],
      first.results[0],
    ]);
    expect(textFiles(root)).toEqual([]);
  });

  it("checks a changed record again and keeps both", async () => {
    const root = fresh("changed");
    await verifyPdf(PAPER, RECORDS, { cacheDir: root });
    const changed: EvidenceRecord[] = [
      { ...(RECORDS[0] as EvidenceRecord & { kind: "quotation" }), page: 3 },
      RECORDS[2],
    ];
    const report = await verifyPdf(PAPER, changed, { cacheDir: root });
    expect(report).toEqual(await wholeDocumentReport(changed));
    expect(report.results[0]).toMatchObject({ verdict: "FAIL", reason: "wrong-page" });
    for (const file of textFiles(root)) rmSync(file);
    expect(await verifyPdf(PAPER, [...RECORDS, ...changed], { cacheDir: root })).toEqual(
      await wholeDocumentReport([...RECORDS, ...changed]),
    );
    expect(textFiles(root)).toEqual([]);
  });

  it("refuses kept results of the wrong shape and checks again", async () => {
    const root = fresh("bad");
    const { first, cache, kept, stored } = await keptOnce(root);
    const buckets = [...new Set(kept.map((k) => k.bucket))];
    expect(buckets.flatMap((b) => stored(b)?.keys ?? []).sort()).toEqual(kept.map((k) => k.key).sort());
    for (const bad of [
      () => null,
      (s: Stored | undefined) => ({ keys: s?.keys, results: [] }),
      (s: Stored | undefined) => ({ keys: s?.keys, results: s?.results.map(() => ({ verdict: "PASS" })) }),
      (s: Stored | undefined) => ({ keys: s?.keys.map(() => 1), results: s?.results }),
    ]) {
      const before = buckets.map((b) => stored(b));
      for (const [i, b] of buckets.entries()) cache.writeRecord(b, bad(before[i]));
      expect(await verifyPdf(PAPER, RECORDS, { cacheDir: root })).toEqual(first);
      // What the run checked again is in the journal: folded, so the next bad buckets answer alone.
      await fold(root, first.document.sha256);
    }
    // A stored PASS put in place of a FAIL would answer: what is stored is what answers, so the
    // record's name must be bound to the code (below) and the file to its digest (the cache's).
    const pass = stored(kept[0].bucket)?.results[stored(kept[0].bucket)?.keys.indexOf(kept[0].key) ?? -1];
    expect(pass).toMatchObject({ verdict: "PASS" });
    cache.writeRecord(kept[3].bucket, { keys: [kept[3].key], results: [pass] });
    expect((await verifyPdf(PAPER, RECORDS, { cacheDir: root })).results[3]).toEqual(first.results[0]);
  });

  it("refuses kept results rewritten without the cache key, their digest recomputed: no forged PASS", async () => {
    const root = fresh("forged");
    const { first, kept, stored } = await keptOnce(root);
    expect(first.results[3].verdict).toBe("FAIL");
    // What a writer of the cache who cannot read the key can do: the FAIL made a PASS, the file's
    // digest recomputed over the binding it names (PDF, role, extractor, format) and the payload.
    const bucket = stored(kept[3].bucket) as Stored;
    const results = [...bucket.results] as Record<string, unknown>[];
    results[bucket.keys.indexOf(kept[3].key)] = { ...first.results[0] };
    const payload = serialize({ keys: bucket.keys, results });
    const file = `rec-${kept[3].bucket}.bin`;
    const binding = `citeproof-cache\0${first.document.sha256}\0${file}\0${EXTRACTOR_VERSION}\0${CACHE_FORMAT}\0`;
    const digest = createHash("sha256").update(binding).update(payload).digest();
    const path = resultsFiles(root).find((f) => f.endsWith(`/${file}`)) as string;
    writeFileSync(join(root, path), Buffer.concat([digest, payload]));
    const again = await verifyPdf(PAPER, RECORDS, { cacheDir: root });
    expect(again.results[3].verdict).toBe("FAIL");
    expect(again).toEqual(first);
  });

  it("reads and writes only the buckets of the records a run checks", async () => {
    const root = fresh("buckets");
    const { first, kept } = await keptOnce(root);
    const names = new Set(kept.map((k) => k.bucket));
    expect(
      resultsFiles(root)
        .map((f) => f.replace(/^.*\/rec-(.*)\.bin$/, "$1"))
        .sort(),
    ).toEqual([...names].sort());
    // Another run of one new record appends it to the journal, and writes no bucket; folded, it
    // writes its bucket alone, and the others are left as they were.
    const other: EvidenceRecord = { id: "e", kind: "page", page: 2 };
    const before = new Map(resultsFiles(root).map((f) => [f, statSync(join(root, f)).mtimeMs]));
    await verifyPdf(PAPER, [other], { cacheDir: root });
    for (const [f, mtime] of before) expect(statSync(join(root, f)).mtimeMs).toBe(mtime);
    expect(journalFiles(root).length).toBe(1);
    await fold(root, first.document.sha256);
    const otherBucket = bucketName(kept[0].bucket.replace(/-\d{2}$/, ""), recordKey(other).bucket);
    for (const [f, mtime] of before)
      if (!f.endsWith(`/rec-${otherBucket}.bin`)) expect(statSync(join(root, f)).mtimeMs).toBe(mtime);
    expect(resultsFiles(root).some((f) => f.endsWith(`/rec-${otherBucket}.bin`))).toBe(true);
    expect(await verifyPdf(PAPER, RECORDS, { cacheDir: root })).toEqual(first);
  });

  it("reads a bucket's file once per process while it stands, and hands out copies", async () => {
    const root = fresh("remembered");
    const { first, cache, kept, stored } = await keptOnce(root);
    const reads = vi.spyOn(ExtractionCache.prototype, "readRecord");
    try {
      const bucketReads = () =>
        reads.mock.calls.filter(([name]) => String(name).startsWith("results-")).length;
      const second = await verifyPdf(PAPER, RECORDS, { cacheDir: root });
      expect(second).toEqual(first);
      expect(bucketReads()).toBe(0);
      // What a caller does to a result it was given changes nothing kept.
      second.results[0].message = "changed by the caller";
      expect(await verifyPdf(PAPER, RECORDS, { cacheDir: root })).toEqual(first);
      expect(bucketReads()).toBe(0);
      // A file written since (by another process, say) is read again: here a PASS put in the FAIL's place.
      const pass = stored(kept[0].bucket)?.results[stored(kept[0].bucket)?.keys.indexOf(kept[0].key) ?? -1];
      cache.writeRecord(kept[3].bucket, { keys: [kept[3].key], results: [pass] });
      expect((await verifyPdf(PAPER, RECORDS, { cacheDir: root })).results[3]).toEqual(first.results[0]);
      expect(bucketReads()).toBeGreaterThan(0);
    } finally {
      reads.mockRestore();
    }
  });

  it("names the results by the derivation key of the checks' code", () => {
    expect(resultsRecordName()).toMatch(new RegExp(`^results-${derivationKey("results")}-[0-9a-f]{8}$`));
  });

  it("reads no kept result when OCR is asked for", async () => {
    const root = fresh("ocr");
    const { first, cache, kept, stored } = await keptOnce(root);
    const pass = stored(kept[0].bucket)?.results[stored(kept[0].bucket)?.keys.indexOf(kept[0].key) ?? -1];
    cache.writeRecord(kept[3].bucket, { keys: [kept[3].key], results: [pass] });
    expect(await verifyPdf(PAPER, RECORDS, { cacheDir: root, ocr: "auto" })).toEqual(first);
  });
});
