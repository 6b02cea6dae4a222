// Two processes keeping results in one document's entry at once, each appending run after run to its
// journal and folding the journals (its own and the other's, live) now and then: every result either
// kept is read back afterwards, none lost to a fold that claimed a file while its writer appended to it.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { EvidenceRecord } from "../../src/checks/evidence-record.js";
import { ExtractionCache } from "../../src/document/cache.js";
import {
  foldJournals,
  KeptResults,
  resultStoreOf,
  resultsRecordName,
} from "../../src/reading/result-cache.js";
import { listFiles, repoRoot, tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
const SHA = "ef".repeat(32);
const NAME = resultsRecordName();
const RUNS = 120;
const PER_RUN = 5;

const dist = (path: string) => pathToFileURL(join(repoRoot, "dist", path)).href;

/** A writer process: RUNS runs of PER_RUN new results each, a fold after every third. */
const WRITER = `
const [root, sha, name, tag, runs, perRun] = process.argv.slice(1);
const { ExtractionCache } = await import(${JSON.stringify(dist("document/cache.js"))});
const { KeptResults, foldJournals, resultStoreOf } = await import(${JSON.stringify(dist("reading/result-cache.js"))});
for (let r = 0; r < Number(runs); r++) {
  const store = resultStoreOf(new ExtractionCache(root, sha), name);
  const kept = new KeptResults(store, name);
  for (let k = 0; k < Number(perRun); k++) {
    const id = tag + "-" + r + "-" + k;
    kept.add(
      { id, kind: "quotation", page: 1, text: "words of " + id },
      { kind: "quotation", verdict: "PASS", reason: "found", message: id, evidence: { page: 1 } },
    );
  }
  kept.keep();
  if (r % 3 === 2) await foldJournals(store, name);
}
`;

function writer(root: string, tag: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--input-type=module", "-e", WRITER, root, SHA, NAME, tag, String(RUNS), String(PER_RUN)],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

describe("results journal: two writers at once", () => {
  it("loses no result either process kept, through folds of each other's live journals", async () => {
    const root = join(tmp.dir, "cache");
    const done = await Promise.all([writer(root, "a"), writer(root, "b")]);
    for (const run of done) expect(run.code, run.stderr).toBe(0);
    const cache = new ExtractionCache(root, SHA);
    const check = () => {
      const kept = new KeptResults(
        { ...resultStoreOf(cache, NAME), place: `${cache.dir}#${Math.random()}` },
        NAME,
      );
      const missing: string[] = [];
      for (const tag of ["a", "b"])
        for (let r = 0; r < RUNS; r++)
          for (let k = 0; k < PER_RUN; k++) {
            const id = `${tag}-${r}-${k}`;
            const record: EvidenceRecord = { id, kind: "quotation", page: 1, text: `words of ${id}` };
            if (kept.get(record)?.message !== id) missing.push(id);
          }
      return missing;
    };
    expect(check()).toEqual([]);
    // Folded whole, the buckets alone hold them all.
    expect(await foldJournals(resultStoreOf(cache, NAME), NAME)).toBe(true);
    expect(listFiles(root).filter((f) => f.endsWith(".log"))).toEqual([]);
    expect(check()).toEqual([]);
  });
});
