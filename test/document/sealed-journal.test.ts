// The sealed journal of a cache entry: frames appended to a file per writer and read back whole and
// sealed; a torn tail and a frame whose seal fails end what is read; a claimed file keeps its identity
// and the writer's next frame starts a new file; the fold's lock is held by one at a time.
import { createHash } from "node:crypto";
import { appendFileSync, readFileSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CACHE_FORMAT, ExtractionCache } from "../../src/document/cache.js";
import { EXTRACTOR_VERSION } from "../../src/document/model.js";
import type { SealedJournal } from "../../src/document/sealed-journal.js";
import { tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let counter = 0;
const SHA = "ab".repeat(32);

function journalOf(name = "results-test", root = join(tmp.dir, `root-${counter++}`)) {
  const cache = new ExtractionCache(root, SHA);
  return { journal: cache.journal(name) as SealedJournal, dir: cache.dir, root };
}

const text = (frames: { values: Uint8Array[] }) => frames.values.map((v) => Buffer.from(v).toString());

describe("sealed journal", () => {
  it("reads back the frames appended, from the start or from a frame's end", () => {
    const { journal } = journalOf();
    const a = journal.append(Buffer.from("first"));
    const b = journal.append(Buffer.from("second"));
    expect(a.start).toBe(0);
    expect(b.start).toBe(a.end);
    expect(b.id).toBe(a.id);
    const [file] = journal.files();
    expect(journal.isOwn(file)).toBe(true);
    expect(file.size).toBe(b.end);
    expect(text(journal.read(file, 0))).toEqual(["first", "second"]);
    expect(journal.read(file, 0).end).toBe(b.end);
    expect(text(journal.read(file, a.end))).toEqual(["second"]);
  });

  it("stops at a torn tail: the whole frames before it are read", () => {
    const { journal, dir } = journalOf();
    journal.append(Buffer.from("kept"));
    const cut = journal.append(Buffer.from("cut short by a crash"));
    const [file] = journal.files();
    for (const length of [cut.end - 1, cut.start + 5, cut.start + 2]) {
      truncateSync(join(dir, file.name), length);
      const [torn] = journal.files();
      const frames = journal.read(torn, 0);
      expect(text(frames)).toEqual(["kept"]);
      expect(frames.end).toBe(cut.start);
    }
  });

  it("stops at a frame whose seal fails: damaged, or forged without the cache key", () => {
    const { journal, dir } = journalOf();
    journal.append(Buffer.from("one"));
    const two = journal.append(Buffer.from("two"));
    journal.append(Buffer.from("three"));
    const [file] = journal.files();
    const path = join(dir, file.name);
    const good = readFileSync(path);
    // A byte of the second frame's payload changed.
    const damaged = Buffer.from(good);
    damaged[two.end - 1] ^= 1;
    writeFileSync(path, damaged);
    expect(text(journal.read(journal.files()[0], 0))).toEqual(["one"]);
    // A frame appended by a writer without the key: its seal a digest over what the binding names.
    writeFileSync(path, good);
    const payload = Buffer.from("forged");
    const binding = `citeproof-cache\0${SHA}\0jrn-results-test\0${EXTRACTOR_VERSION}\0${CACHE_FORMAT}\0`;
    const seal = createHash("sha256").update(binding).update(payload).digest();
    const length = Buffer.alloc(4);
    length.writeUInt32LE(payload.length);
    appendFileSync(path, Buffer.concat([length, seal, payload]));
    expect(text(journal.read(journal.files()[0], 0))).toEqual(["one", "two", "three"]);
  });

  it("refuses another journal's frames: a seal binds the journal's name and the document", () => {
    const { journal, dir, root } = journalOf("results-a");
    journal.append(Buffer.from("a's"));
    const other = journalOf("results-b", root).journal;
    const [file] = journal.files();
    // The file under the other journal's name.
    writeFileSync(join(dir, file.name.replace("results-a", "results-b")), readFileSync(join(dir, file.name)));
    const [copied] = other.files();
    expect(copied).toBeDefined();
    expect(text(other.read(copied, 0))).toEqual([]);
  });

  it("a claimed file keeps its identity and frames; the writer's next frame starts a new file", () => {
    const { journal } = journalOf();
    const first = journal.append(Buffer.from("before the claim"));
    const [file] = journal.files();
    const claimed = journal.claim(file);
    expect(claimed?.id).toBe(file.id);
    expect(journal.claim(file)).toBeUndefined();
    const next = journal.append(Buffer.from("after the claim"));
    expect(next.id).not.toBe(first.id);
    expect(next.start).toBe(0);
    const files = journal.files();
    expect(files.map((f) => f.id).sort()).toEqual([first.id, next.id].sort());
    expect(files.filter((f) => journal.isOwn(f)).map((f) => f.id)).toEqual([next.id]);
    expect(text(journal.read(claimed as (typeof files)[number], 0))).toEqual(["before the claim"]);
    journal.remove(claimed as (typeof files)[number]);
    expect(journal.files().map((f) => f.id)).toEqual([next.id]);
  });

  it("reads nothing of a file that is another file now", () => {
    const { journal } = journalOf();
    journal.append(Buffer.from("x"));
    const [file] = journal.files();
    expect(text(journal.read({ ...file, id: "0:0:0" }, 0))).toEqual([]);
  });

  it("holds the fold's lock for one at a time, and takes over a lock left long ago", () => {
    const { journal, dir } = journalOf();
    journal.append(Buffer.from("x"));
    const release = journal.tryLock();
    expect(release).toBeTypeOf("function");
    expect(journal.tryLock()).toBeUndefined();
    release?.();
    const again = journal.tryLock();
    expect(again).toBeTypeOf("function");
    // Left by a folder that stopped six minutes ago.
    const old = new Date(Date.now() - 6 * 60 * 1000);
    utimesSync(join(dir, "jrn-results-test.lock"), old, old);
    const taken = journal.tryLock();
    expect(taken).toBeTypeOf("function");
    taken?.();
  });
});
