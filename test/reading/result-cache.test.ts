// Results kept between runs: a verify keeps each quotation and page record's result under the
// record's digest, in the document's cache entry, named by the derivation key of the checks' code; a later verify of
// the same records answers from them without reading a page, a changed record is checked again, a
// stored value of the wrong shape is refused, and other code reads other results.
import { createHash } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serialize } from "node:v8";
import { afterAll, describe, expect, it } from "vitest";
import type { EvidenceRecord } from "../../src/checks/evidence-record.js";
import { verifyEvidence } from "../../src/checks/verify.js";
import { CACHE_FORMAT, ExtractionCache } from "../../src/document/cache.js";
import { EXTRACTOR_VERSION } from "../../src/document/model.js";
import { openDocument } from "../../src/document/open.js";
import { verifyPdf } from "../../src/reading/cited-pages-first.js";
import { resultsRecordName } from "../../src/reading/result-cache.js";
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
const resultsFile = (root: string) =>
  listFiles(root).find((f) => /\/rec-results-[0-9a-f]{16}-[0-9a-f]{8}\.bin$/.test(f));

/** A verify of RECORDS, and the results it kept as stored. */
async function keptOnce(root: string) {
  const first = await verifyPdf(PAPER, RECORDS, { cacheDir: root });
  const name = (resultsFile(root) as string).replace(
    /^.*\/rec-(results-[0-9a-f]{16}-[0-9a-f]{8})\.bin$/,
    "$1",
  );
  const cache = new ExtractionCache(root, first.document.sha256);
  const stored = cache.readRecord<{ keys: string[]; results: unknown[] }>(name);
  return { first, cache, name, stored };
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
    expect(resultsFile(root)).toBeDefined();
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
    const { first, cache, name, stored } = await keptOnce(root);
    expect(stored?.keys).toHaveLength(RECORDS.length);
    for (const bad of [
      null,
      { keys: stored?.keys, results: [] },
      { keys: stored?.keys, results: stored?.results.map(() => ({ verdict: "PASS" })) },
      { keys: stored?.keys.map(() => 1), results: stored?.results },
    ]) {
      cache.writeRecord(name, bad);
      expect(await verifyPdf(PAPER, RECORDS, { cacheDir: root })).toEqual(first);
    }
    // A stored PASS put in place of a FAIL would answer: what is stored is what answers, so the
    // record's name must be bound to the code (below) and the file to its digest (the cache's).
    const swapped = { keys: stored?.keys, results: [...(stored?.results ?? [])].reverse() };
    cache.writeRecord(name, swapped);
    expect((await verifyPdf(PAPER, RECORDS, { cacheDir: root })).results[0]).toEqual(first.results[3]);
  });

  it("refuses kept results rewritten without the cache key, their digest recomputed: no forged PASS", async () => {
    const root = fresh("forged");
    const { first, name, stored } = await keptOnce(root);
    expect(first.results[3].verdict).toBe("FAIL");
    // What a writer of the cache who cannot read the key can do: the FAIL made a PASS, the file's
    // digest recomputed over the binding it names (PDF, role, extractor, format) and the payload.
    const results = [...(stored?.results ?? [])] as Record<string, unknown>[];
    results[3] = { ...results[0] };
    const payload = serialize({ keys: stored?.keys, results });
    const file = `rec-${name}.bin`;
    const binding = `citeproof-cache\0${first.document.sha256}\0${file}\0${EXTRACTOR_VERSION}\0${CACHE_FORMAT}\0`;
    const digest = createHash("sha256").update(binding).update(payload).digest();
    writeFileSync(join(root, resultsFile(root) as string), Buffer.concat([digest, payload]));
    const again = await verifyPdf(PAPER, RECORDS, { cacheDir: root });
    expect(again.results[3].verdict).toBe("FAIL");
    expect(again).toEqual(first);
  });

  it("names the results by the derivation key of the checks' code", () => {
    expect(resultsRecordName()).toMatch(new RegExp(`^results-${derivationKey("results")}-[0-9a-f]{8}$`));
  });

  it("reads no kept result when OCR is asked for", async () => {
    const root = fresh("ocr");
    const { first, cache, name, stored } = await keptOnce(root);
    cache.writeRecord(name, { keys: stored?.keys, results: [...(stored?.results ?? [])].reverse() });
    expect(await verifyPdf(PAPER, RECORDS, { cacheDir: root, ocr: "auto" })).toEqual(first);
  });
});
