// The cache's overall bound: entries are evicted by last use (an entry's folder time, set when it is
// opened) until the cache is under its cap; `citeproof cache prune` prunes at once, and a command that
// writes to the cache prunes it when its last prune is an hour old.
import { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cacheEntryPath } from "../../src/document/cache.js";
import { pruneCache } from "../../src/document/cache-prune.js";
import { openDocument } from "../../src/document/open.js";
import { sha256Hex } from "../../src/source/file.js";
import { fixture, tempDir } from "../helpers/fixture-files.js";
import { runCliInProcess } from "../helpers/run-cli.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let counter = 0;
const fresh = (name: string) => join(tmp.dir, `${name}-${counter++}`);
const MIB = 1024 * 1024;

/** An entry of `mib` MiB for a made-up document, last used `ageHours` ago. */
function fakeEntry(root: string, n: number, mib: number, ageHours: number): string {
  const sha = n.toString(16).padStart(64, "0");
  const dir = join(root, cacheEntryPath(sha));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "text.bin"), Buffer.alloc(mib * MIB));
  const at = new Date(Date.now() - ageHours * 3600_000);
  utimesSync(dir, at, at);
  return dir;
}

describe("the cache's bound", () => {
  it("evicts the least recently used entries until the cache is under its cap", async () => {
    const root = fresh("lru");
    const dirs = [
      fakeEntry(root, 1, 1, 5),
      fakeEntry(root, 2, 1, 1),
      fakeEntry(root, 3, 1, 10),
      fakeEntry(root, 4, 1, 3),
    ];
    const report = pruneCache(root, 2.5 * MIB);
    expect(report).toMatchObject({ before: 4 * MIB, after: 2 * MIB, removed: 2, entries: 2 });
    expect(dirs.map((d) => existsSync(d))).toEqual([false, true, false, true]);
    // Under the cap: nothing more goes.
    expect(pruneCache(root, 2.5 * MIB).removed).toBe(0);
  });

  it("opening an entry makes it the most recently used", async () => {
    const root = fresh("touch");
    const doc = await openDocument(fixture("paper"), { cacheDir: root });
    const dir = join(root, cacheEntryPath(doc.sha256));
    const old = new Date(Date.now() - 48 * 3600_000);
    utimesSync(dir, old, old);
    await openDocument(fixture("paper"), { cacheDir: root });
    expect(Date.now() - statSync(dir).mtimeMs).toBeLessThan(60_000);
  });

  it("citeproof cache prune --max-mb: removes the oldest, reports before and after", async () => {
    const root = fresh("cli");
    const dirs = [fakeEntry(root, 1, 2, 9), fakeEntry(root, 2, 2, 1)];
    const run = await runCliInProcess(["cache", "prune", "--cache-dir", root, "--max-mb", "3", "--json"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ cache_dir: root, before: 4 * MIB, after: 2 * MIB, removed: 1 });
    expect(dirs.map((d) => existsSync(d))).toEqual([false, true]);
    const bad = await runCliInProcess(["cache", "prune", "--cache-dir", root, "--max-mb", "lots", "--json"]);
    expect([bad.status, (bad.json as { error: { code: string } }).error.code]).toEqual([2, "USAGE"]);
  });

  it("a command that writes to the cache keeps it under CITEPROOF_CACHE_MAX_MB, its own entry kept", async () => {
    const root = fresh("auto");
    const old = [fakeEntry(root, 1, 2, 30), fakeEntry(root, 2, 2, 20)];
    const evidence = join(tmp.dir, `e-${counter++}.json`);
    writeFileSync(evidence, JSON.stringify([{ kind: "page", page: 1 }]));
    const pdf = fixture("paper");
    const run = await runCliInProcess(
      ["verify", pdf, "--evidence", evidence, "--cache-dir", root, "--json"],
      {
        env: { CITEPROOF_CACHE_MAX_MB: "1" },
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(old.map((d) => existsSync(d))).toEqual([false, false]);
    expect(existsSync(join(root, cacheEntryPath(sha256Hex(readFileSync(pdf))), "doc.bin"))).toBe(true);
  });
});
