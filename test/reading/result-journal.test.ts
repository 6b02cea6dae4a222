// The results journal: a run's new results are appended to its writer's journal, not written into the
// buckets; a later process reads them beside the buckets; a torn tail or a frame whose seal fails is
// missed (checked again), never answered wrongly; a fold puts the journals' results into the buckets and
// removes the files, and a fold cut short is finished by the next one.
import { createHash } from "node:crypto";
import { appendFileSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serialize } from "node:v8";
import { afterAll, describe, expect, it } from "vitest";
import type { EvidenceRecord } from "../../src/checks/evidence-record.js";
import type { CheckResult } from "../../src/checks/result.js";
import { CACHE_FORMAT, ExtractionCache } from "../../src/document/cache.js";
import { EXTRACTOR_VERSION } from "../../src/document/model.js";
import type { SealedJournal } from "../../src/document/sealed-journal.js";
import {
  foldJournals,
  KeptResults,
  type ResultStore,
  recordKey,
  resultStoreOf,
  resultsRecordName,
} from "../../src/reading/result-cache.js";
import { listFiles, tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let counter = 0;
const SHA = "cd".repeat(32);
const NAME = resultsRecordName();

const record = (i: number): EvidenceRecord => ({
  id: `q${i}`,
  kind: "quotation",
  page: 1,
  text: `words ${i}`,
});
const result = (i: number, verdict: "PASS" | "FAIL" = "PASS") =>
  ({
    kind: "quotation",
    verdict,
    reason: verdict === "PASS" ? "found" : "absent",
    message: `result ${i}`,
    evidence: { page: 1 },
  }) as unknown as CheckResult;

/** A document's cache entry in a fresh root. */
function entry() {
  const root = join(tmp.dir, `root-${counter++}`);
  return { root, cache: new ExtractionCache(root, SHA) };
}

/**
 * The entry's store as a process that has read nothing of it sees it: what this process remembers is
 * kept by place, so a place of its own stands for another process.
 */
function freshProcess(cache: ExtractionCache): ResultStore {
  return { ...resultStoreOf(cache, NAME), place: `${cache.dir}#process-${counter++}` };
}

function keepRun(store: ResultStore, ids: number[], verdict: "PASS" | "FAIL" = "PASS"): void {
  const kept = new KeptResults(store, NAME);
  for (const i of ids) kept.add(record(i), result(i, verdict));
  kept.keep();
}

const answers = (store: ResultStore, ids: number[]) => {
  const kept = new KeptResults(store, NAME);
  return ids.map((i) => kept.get(record(i))?.message);
};
const journalFiles = (root: string) => listFiles(root).filter((f) => /\/jrn-results-.*\.log$/.test(f));
const bucketFiles = (root: string) => listFiles(root).filter((f) => /\/rec-results-.*-\d{2}\.bin$/.test(f));

describe("results journal", () => {
  it("appends a run's results to the journal, writing no bucket, and a later process reads them", () => {
    const { root, cache } = entry();
    keepRun(freshProcess(cache), [0, 1, 2]);
    keepRun(freshProcess(cache), [3]);
    expect(journalFiles(root)).toHaveLength(1);
    expect(bucketFiles(root)).toEqual([]);
    expect(answers(freshProcess(cache), [0, 1, 2, 3, 4])).toEqual([
      "result 0",
      "result 1",
      "result 2",
      "result 3",
      undefined,
    ]);
  });

  it("reads only what was appended since, and hands out copies", () => {
    const { cache } = entry();
    const server = freshProcess(cache);
    keepRun(server, [0]);
    const got = new KeptResults(server, NAME).get(record(0)) as CheckResult;
    got.message = "changed by the caller";
    keepRun(freshProcess(cache), [1]);
    expect(answers(server, [0, 1])).toEqual(["result 0", "result 1"]);
  });

  it("misses a torn tail's results (checked again) and answers the whole frames before it", () => {
    const { root, cache } = entry();
    const writer = freshProcess(cache);
    keepRun(writer, [0, 1]);
    keepRun(writer, [2, 3]);
    const [file] = journalFiles(root);
    const path = join(root, file);
    truncateSync(path, readFileSync(path).length - 3);
    expect(answers(freshProcess(cache), [0, 1, 2, 3])).toEqual([
      "result 0",
      "result 1",
      undefined,
      undefined,
    ]);
  });

  it("misses a frame whose seal fails and what follows it, so a forged PASS never answers", () => {
    const { root, cache } = entry();
    keepRun(freshProcess(cache), [0], "FAIL");
    const [file] = journalFiles(root);
    const path = join(root, file);
    const good = readFileSync(path);
    // Damaged: a byte of the payload changed.
    const damaged = Buffer.from(good);
    damaged[damaged.length - 2] ^= 1;
    writeFileSync(path, damaged);
    expect(answers(freshProcess(cache), [0])).toEqual([undefined]);
    // Forged: a PASS for record 1 sealed with a digest a writer without the key can compute.
    writeFileSync(path, good);
    const payload = serialize({ keys: [recordKey(record(1)).key], results: [result(1, "PASS")] });
    const role = `jrn-${NAME}`;
    const binding = `citeproof-cache\0${SHA}\0${role}\0${EXTRACTOR_VERSION}\0${CACHE_FORMAT}\0`;
    const length = Buffer.alloc(4);
    length.writeUInt32LE(payload.length);
    appendFileSync(
      path,
      Buffer.concat([length, createHash("sha256").update(binding).update(payload).digest(), payload]),
    );
    const fresh = new KeptResults(freshProcess(cache), NAME);
    expect(fresh.get(record(0))?.verdict).toBe("FAIL");
    expect(fresh.get(record(1))).toBeUndefined();
  });

  it("folds the journals into the buckets and removes them; the results answer from the buckets", async () => {
    const { root, cache } = entry();
    keepRun(freshProcess(cache), [0, 1]);
    keepRun(freshProcess(cache), [2]);
    const store = freshProcess(cache);
    expect(await foldJournals(store, NAME)).toBe(true);
    expect(journalFiles(root)).toEqual([]);
    const buckets = new Set([0, 1, 2].map((i) => recordKey(record(i)).bucket));
    expect(bucketFiles(root)).toHaveLength(buckets.size);
    expect(answers(freshProcess(cache), [0, 1, 2])).toEqual(["result 0", "result 1", "result 2"]);
    // A later fold merges with what the buckets hold.
    keepRun(freshProcess(cache), [3]);
    expect(await foldJournals(freshProcess(cache), NAME)).toBe(true);
    expect(answers(freshProcess(cache), [0, 1, 2, 3])).toEqual([
      "result 0",
      "result 1",
      "result 2",
      "result 3",
    ]);
  });

  it("keeps the claimed files when a bucket could not be written, so nothing kept is lost", async () => {
    const { root, cache } = entry();
    keepRun(freshProcess(cache), [0, 1]);
    // A store that drops what it is given (a full disk, say).
    const dropping = { ...freshProcess(cache), write: () => {} };
    expect(await foldJournals(dropping, NAME)).toBe(false);
    expect(journalFiles(root)).toHaveLength(1);
    expect(bucketFiles(root)).toEqual([]);
    expect(answers(freshProcess(cache), [0, 1])).toEqual(["result 0", "result 1"]);
    expect(await foldJournals(freshProcess(cache), NAME)).toBe(true);
    expect(answers(freshProcess(cache), [0, 1])).toEqual(["result 0", "result 1"]);
  });

  it("does nothing while another fold holds the lock", async () => {
    const { root, cache } = entry();
    keepRun(freshProcess(cache), [0]);
    const release = (cache.journal(NAME) as SealedJournal).tryLock();
    expect(await foldJournals(freshProcess(cache), NAME)).toBe(false);
    expect(journalFiles(root)).toHaveLength(1);
    release?.();
    expect(await foldJournals(freshProcess(cache), NAME)).toBe(true);
  });

  it("a fold cut short leaves its claimed files: they are read, and folded by the next fold", async () => {
    const { root, cache } = entry();
    keepRun(freshProcess(cache), [0, 1]);
    const journal = cache.journal(NAME) as SealedJournal;
    // What a folder that stopped after its claim leaves.
    const [file] = journal.files();
    expect(journal.claim(file)).toBeDefined();
    expect(answers(freshProcess(cache), [0, 1])).toEqual(["result 0", "result 1"]);
    // The writer goes on in a new file.
    keepRun(freshProcess(cache), [2]);
    expect(journalFiles(root)).toHaveLength(2);
    expect(await foldJournals(freshProcess(cache), NAME)).toBe(true);
    expect(journalFiles(root)).toEqual([]);
    expect(answers(freshProcess(cache), [0, 1, 2])).toEqual(["result 0", "result 1", "result 2"]);
  });

  it("a run folds the journals once there are more than eight files", async () => {
    const { root, cache } = entry();
    // Nine one-shot runs: each leaves a file of its own (a writer of its own: its file claimed aside).
    const journal = cache.journal(NAME) as SealedJournal;
    for (let i = 0; i < 9; i++) {
      keepRun(freshProcess(cache), [i]);
      for (const f of journal.files()) if (journal.isOwn(f)) journal.claim(f);
    }
    expect(journalFiles(root)).toHaveLength(9);
    keepRun(freshProcess(cache), [9]);
    // The fold runs after the call, a step at a time.
    for (let wait = 0; wait < 100 && journalFiles(root).length > 0; wait++)
      await new Promise((r) => setTimeout(r, 10));
    expect(journalFiles(root)).toEqual([]);
    expect(answers(freshProcess(cache), [0, 5, 9])).toEqual(["result 0", "result 5", "result 9"]);
  });
});
