// The extraction cache: a second run does not re-extract; a corrupt, forged or misplaced entry is
// discarded and rebuilt, never trusted; --cache-dir, CITEPROOF_CACHE_DIR, the default location and
// --no-cache.
import { createHash } from "node:crypto";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { afterAll, describe, expect, it } from "vitest";
import { verifyEvidence } from "../../src/checks/verify.js";
import { CACHE_FORMAT, cacheEntryPath, ExtractionCache } from "../../src/document/cache.js";
import { EXTRACTOR_VERSION, type PageText } from "../../src/document/model.js";
import { openDocument } from "../../src/document/open.js";
import { sha256Hex } from "../../src/source/file.js";
import { fixture, listFiles, tempDir } from "../helpers/fixture-files.js";
import { runCli } from "../helpers/run-cli.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let counter = 0;
const fresh = (name: string) => join(tmp.dir, `${name}-${counter++}`);

const PAPER = fixture("paper");
const PAPER_SHA = sha256Hex(readFileSync(PAPER));
const QUOTE = "reduced the mean squared error by roughly a third";
const FORGED = "words forged into the cache entry that the PDF never held";

function entryDir(root: string): string {
  return join(root, cacheEntryPath(PAPER_SHA));
}

/** A stored page as the document text file holds it (lines packed). */
type StoredPage = Omit<PageText, "lines">;

/**
 * Rewrites the document text file (a seal over the table; the table: page count, then each page's
 * offset, length and sha256; each page's record), its pages edited, each page's sha256 in the table
 * recomputed and the seal kept (or recomputed over the table alone, without the binding the cache
 * seals with).
 */
function rewriteDocumentText(
  path: string,
  edit: (pages: StoredPage[]) => StoredPage[],
  reseal: boolean | "bound" = false,
): void {
  const data = readFileSync(path);
  const count = data.readUInt32LE(32);
  const pages: StoredPage[] = [];
  for (let i = 0; i < count; i++) {
    const at = 36 + i * 44;
    const offset = data.readDoubleLE(at);
    pages.push(deserialize(data.subarray(offset, offset + data.readUInt32LE(at + 8))) as StoredPage);
  }
  const chunks = edit(pages).map((page) => serialize(page));
  const table = Buffer.alloc(4 + count * 44);
  table.writeUInt32LE(count, 0);
  let offset = 32 + table.length;
  chunks.forEach((chunk, i) => {
    table.writeDoubleLE(offset, 4 + i * 44);
    table.writeUInt32LE(chunk.length, 4 + i * 44 + 8);
    createHash("sha256")
      .update(chunk)
      .digest()
      .copy(table, 4 + i * 44 + 12);
    offset += chunk.length;
  });
  // "bound": the digest recomputed over the binding the file names too, as anyone can without the key.
  const binding = `citeproof-cache\0${PAPER_SHA}\0text.bin\0${EXTRACTOR_VERSION}\0${CACHE_FORMAT}\0`;
  const seal =
    reseal === "bound"
      ? createHash("sha256").update(binding).update(table).digest()
      : reseal
        ? createHash("sha256").update(table).digest()
        : data.subarray(0, 32);
  writeFileSync(path, Buffer.concat([seal, table, ...chunks]));
}

/** The document text file's page 5 with its text replaced. */
const forgePage5 = (pages: StoredPage[]): StoredPage[] =>
  pages.map((p, i) => (i === 4 ? { ...p, text: FORGED } : p));

describe("through the library", () => {
  it("extracts once; a second open reads every page from the cache", async () => {
    const root = fresh("lib");
    const first = await openDocument(PAPER, { cacheDir: root, withGeometry: true });
    expect(first.extractedPages).toBe(5);
    const second = await openDocument(PAPER, { cacheDir: root, withGeometry: true });
    expect(second.extractedPages).toBe(0);
    expect(second.pages).toEqual(first.pages);
    expect([...second.geometry.keys()]).toEqual([...first.geometry.keys()]);
    for (const [page, geom] of first.geometry) {
      const again = second.geometry.get(page)!;
      expect(Buffer.from(again.glyphBoxes.buffer)).toEqual(Buffer.from(geom.glyphBoxes.buffer));
      expect(Array.from(again.flags)).toEqual(Array.from(geom.flags));
    }
    const third = await openDocument(PAPER, { cacheDir: root });
    expect(third.extractedPages).toBe(0);
    expect(third.cache?.discarded).toBe(0);
  });

  it("keys entries by sha256 and extractor version, and leaves no temporary files", async () => {
    const root = fresh("layout");
    await openDocument(PAPER, { cacheDir: root, withGeometry: true });
    // Beside the entries, only the marker of the cache's last prune (cache-prune.ts).
    const files = listFiles(root).filter((f) => f !== ".pruned");
    const prefix = `${cacheEntryPath(PAPER_SHA)}/`;
    expect(files.every((f) => f.startsWith(prefix))).toBe(true);
    expect(files.map((f) => f.slice(prefix.length))).toEqual(
      expect.arrayContaining(["doc.bin", "text.bin", "p00001.geom.bin", "p00005.geom.bin"]),
    );
    // Read whole, the text layer is one file; pages read one at a time get one each.
    expect(files.some((f) => f.endsWith(".text.bin"))).toBe(false);
    const single = fresh("layout-single");
    await openDocument(PAPER, { cacheDir: single, pages: [2] });
    expect(listFiles(single).map((f) => f.slice(prefix.length))).toEqual(
      expect.arrayContaining(["doc.bin", "p00002.text.bin"]),
    );
    // Pages asked for one by one that turn out to be every page are stored as one file, not one each.
    const { pageCount } = await openDocument(PAPER, { noCache: true });
    const every = fresh("layout-every");
    await openDocument(PAPER, { cacheDir: every, pages: Array.from({ length: pageCount }, (_, i) => i + 1) });
    const entries = listFiles(every).filter((f) => f !== ".pruned");
    expect(entries.map((f) => f.slice(prefix.length))).toEqual(["doc.bin", "text.bin"]);
    expect(files.some((f) => f.includes(".tmp-"))).toBe(false);
  });

  const damages: [string, (path: string) => void][] = [
    ["a flipped byte", (path) => flipByte(path)],
    ["a truncated file", (path) => writeFileSync(path, readFileSync(path).subarray(0, 20))],
    ["an empty file", (path) => writeFileSync(path, "")],
  ];

  it.each([
    ...damages,
    ["a forged page under the old seal", (path: string) => rewriteDocumentText(path, forgePage5)],
    [
      "a forged page whose sha256 in the table is its own",
      (path: string) => {
        const data = readFileSync(path);
        // The last page's record ends the file: change a byte of it and the table's sha256 with it.
        const count = data.readUInt32LE(32);
        const at = 36 + (count - 1) * 44;
        const offset = data.readDoubleLE(at);
        const chunk = data.subarray(offset, offset + data.readUInt32LE(at + 8));
        chunk[chunk.length - 2] ^= 0x01;
        createHash("sha256")
          .update(chunk)
          .digest()
          .copy(data, at + 12);
        writeFileSync(path, data);
      },
    ],
  ])("discards and rebuilds the document text file with %s", async (_label, damage) => {
    const root = fresh("corrupt");
    const first = await openDocument(PAPER, { cacheDir: root });
    damage(join(entryDir(root), "text.bin"));
    const second = await openDocument(PAPER, { cacheDir: root });
    expect(second.cache!.discarded).toBe(1);
    expect(second.extractedPages).toBe(5);
    expect(second.pages).toEqual(first.pages);
    const report = await verifyEvidence(second, [
      { kind: "quotation", page: 5, text: QUOTE },
      { kind: "quotation", page: 5, text: FORGED },
    ]);
    expect(report.results.map((r) => r.verdict)).toEqual(["PASS", "FAIL"]);
    // Rebuilt: the next open trusts the cache again.
    const third = await openDocument(PAPER, { cacheDir: root });
    expect([third.extractedPages, third.cache!.discarded]).toEqual([0, 0]);
  });

  it.each(damages)("discards and rebuilds one page's own file with %s", async (_label, damage) => {
    const root = fresh("corrupt-page");
    const first = await openDocument(PAPER, { cacheDir: root, pages: [5] });
    damage(join(entryDir(root), "p00005.text.bin"));
    const second = await openDocument(PAPER, { cacheDir: root, pages: [5] });
    expect([second.cache!.discarded, second.extractedPages]).toEqual([1, 1]);
    expect(second.pages[4]).toEqual(first.pages[4]);
    const third = await openDocument(PAPER, { cacheDir: root, pages: [5] });
    expect([third.extractedPages, third.cache!.discarded]).toEqual([0, 0]);
  });

  it("does not trust an intact entry filed under another page", async () => {
    const root = fresh("misfiled");
    const first = await openDocument(PAPER, { cacheDir: root, pages: [4] });
    await openDocument(PAPER, { cacheDir: root, pages: [5] });
    const dir = entryDir(root);
    writeFileSync(join(dir, "p00004.text.bin"), readFileSync(join(dir, "p00005.text.bin")));
    const second = await openDocument(PAPER, { cacheDir: root, pages: [4] });
    expect(second.extractedPages).toBe(1);
    expect(second.pages[3]).toEqual(first.pages[3]);
  });

  it("does not trust a document text file whose pages are out of place, even under a fresh digest", async () => {
    const root = fresh("misplaced");
    const first = await openDocument(PAPER, { cacheDir: root });
    rewriteDocumentText(
      join(entryDir(root), "text.bin"),
      (pages) => [pages[1], pages[0], ...pages.slice(2)],
      true,
    );
    const second = await openDocument(PAPER, { cacheDir: root });
    expect([second.cache!.discarded, second.extractedPages]).toEqual([1, 5]);
    expect(second.pages).toEqual(first.pages);
  });

  it("does not trust page text rewritten without the cache key, every digest recomputed", async () => {
    const root = fresh("forged");
    const first = await openDocument(PAPER, { cacheDir: root });
    rewriteDocumentText(join(entryDir(root), "text.bin"), forgePage5, "bound");
    const second = await openDocument(PAPER, { cacheDir: root });
    expect([second.cache!.discarded, second.extractedPages]).toEqual([1, 5]);
    expect(second.pages).toEqual(first.pages);
    expect(
      (await verifyEvidence(second, [{ kind: "quotation", page: 5, text: FORGED }])).results[0].verdict,
    ).toBe("FAIL");
  });

  it("seals under the key CITEPROOF_CACHE_KEY_FILE names: another key's entries are not trusted", async () => {
    const root = fresh("shared");
    const saved = process.env.CITEPROOF_CACHE_KEY_FILE;
    try {
      process.env.CITEPROOF_CACHE_KEY_FILE = join(tmp.dir, `shared-key-${counter++}`);
      expect((await openDocument(PAPER, { cacheDir: root })).extractedPages).toBe(5);
      expect((await openDocument(PAPER, { cacheDir: root })).extractedPages).toBe(0);
      process.env.CITEPROOF_CACHE_KEY_FILE = join(tmp.dir, `other-key-${counter++}`);
      const other = await openDocument(PAPER, { cacheDir: root });
      expect(other.extractedPages).toBe(5);
      expect(other.cache!.discarded).toBeGreaterThan(0);
    } finally {
      if (saved === undefined) delete process.env.CITEPROOF_CACHE_KEY_FILE;
      else process.env.CITEPROOF_CACHE_KEY_FILE = saved;
    }
  });

  it("re-extracts every page when the document entry is corrupt", async () => {
    const root = fresh("doc");
    await openDocument(PAPER, { cacheDir: root });
    flipByte(join(entryDir(root), "doc.bin"));
    const second = await openDocument(PAPER, { cacheDir: root });
    expect(second.pageCount).toBe(5);
    expect(second.extractedPages).toBe(5);
    expect(second.cache!.discarded).toBe(1);
  });

  it("still answers when the cache cannot be written", async () => {
    const blocker = fresh("not-a-dir");
    writeFileSync(blocker, "a file where the cache directory should be");
    const doc = await openDocument(PAPER, { cacheDir: blocker });
    expect(doc.extractedPages).toBe(5);
    expect(
      (await verifyEvidence(doc, [{ kind: "quotation", page: 5, text: QUOTE }])).results[0].verdict,
    ).toBe("PASS");
  });

  it("neither reads nor writes with noCache", async () => {
    const root = fresh("nocache");
    await openDocument(PAPER, { cacheDir: root });
    rewriteDocumentText(join(entryDir(root), "text.bin"), forgePage5, true);
    const before = listFiles(root).map((f) => statSync(join(root, f)).mtimeMs);
    const doc = await openDocument(PAPER, { cacheDir: root, noCache: true });
    expect(doc.cache).toBeUndefined();
    expect(doc.extractedPages).toBe(5);
    expect(doc.pages[4]!.text.replace(/\s+/g, " ")).toContain(QUOTE);
    expect(listFiles(root).map((f) => statSync(join(root, f)).mtimeMs)).toEqual(before);
    // A digest over the payload alone is not the entry's: it must bind the PDF, the file and the extractor.
    expect(new ExtractionCache(root, PAPER_SHA).readPageText(5)).toBeUndefined();
  });
});

function flipByte(path: string): void {
  const data = readFileSync(path);
  data[data.length - 3] ^= 0x5a;
  writeFileSync(path, data);
}

describe("through the CLI", () => {
  const evidence = join(tmp.dir, "evidence.json");
  writeFileSync(
    evidence,
    JSON.stringify([
      { id: "q", kind: "quotation", page: 5, text: QUOTE },
      { id: "f", kind: "quotation", page: 5, text: FORGED },
    ]),
  );
  const verify = (extra: string[], env: Record<string, string | undefined> = {}) =>
    runCli(["verify", PAPER, "--evidence", evidence, "--json", ...extra], {
      env: { CITEPROOF_CACHE_DIR: undefined, XDG_CACHE_HOME: fresh("xdg"), ...env },
    });
  const stamp = (root: string) => listFiles(root).map((f) => `${f}@${statSync(join(root, f)).mtimeMs}`);

  it("--cache-dir: the first run fills it, the second reads it without rewriting anything", () => {
    const root = fresh("cli");
    const first = verify(["--cache-dir", root]);
    expect(first.status).toBe(1);
    const files = stamp(root);
    expect(files.map((f) => f.replace(/^.*\//, "").replace(/@.*$/, ""))).toEqual(
      expect.arrayContaining(["doc.bin", "text.bin"]),
    );
    const second = verify(["--cache-dir", root]);
    expect(second.stdout).toBe(first.stdout);
    expect(stamp(root)).toEqual(files);
  });

  it("CITEPROOF_CACHE_DIR moves the cache; --cache-dir wins over it", () => {
    const envRoot = fresh("env");
    expect(verify([], { CITEPROOF_CACHE_DIR: envRoot }).status).toBe(1);
    expect(listFiles(envRoot).some((f) => f.endsWith("doc.bin"))).toBe(true);
    const flagRoot = fresh("flag");
    const otherEnv = fresh("env-unused");
    expect(verify(["--cache-dir", flagRoot], { CITEPROOF_CACHE_DIR: otherEnv }).status).toBe(1);
    expect(listFiles(flagRoot).length).toBeGreaterThan(0);
    expect(listFiles(otherEnv)).toEqual([]);
  });

  it("defaults to the user's cache directory ($XDG_CACHE_HOME/citeproof)", () => {
    const xdg = fresh("xdg-home");
    expect(verify([], { XDG_CACHE_HOME: xdg }).status).toBe(1);
    expect(
      listFiles(join(xdg, "citeproof")).some((f) => f.startsWith(`${PAPER_SHA.slice(0, 2)}/${PAPER_SHA}/`)),
    ).toBe(true);
  });

  it("--no-cache writes nothing, wherever the cache would be", () => {
    const flagRoot = fresh("nc-flag");
    const envRoot = fresh("nc-env");
    const xdg = fresh("nc-xdg");
    const run = verify(["--no-cache", "--cache-dir", flagRoot], {
      CITEPROOF_CACHE_DIR: envRoot,
      XDG_CACHE_HOME: xdg,
    });
    expect(run.status).toBe(1);
    for (const dir of [flagRoot, envRoot, xdg]) expect(listFiles(dir)).toEqual([]);
  });

  it("a corrupt entry never changes a verdict", () => {
    const root = fresh("cli-corrupt");
    const clean = verify(["--cache-dir", root]);
    rewriteDocumentText(join(entryDir(root), "text.bin"), forgePage5);
    const again = verify(["--cache-dir", root]);
    expect(again.stdout).toBe(clean.stdout);
    const results = (again.json as { results: { verdict: string }[] }).results;
    expect(results.map((r) => r.verdict)).toEqual(["PASS", "FAIL"]);
  });
});
