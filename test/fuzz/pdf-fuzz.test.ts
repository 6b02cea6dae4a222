// Seeded fuzz test: mutated fixture and corpus PDFs go through the library as the CLI uses it.
// Every input must end in a coded tool error or in verdicts, never a crash, and never take much
// longer than the extraction deadline. Inputs a reader rejects leave nothing in the cache.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REASONS, VERDICTS } from "../../src/checks/verdicts.js";
import { verifyEvidence } from "../../src/checks/verify.js";
import { openDocument } from "../../src/document/open.js";
import { CiteproofError } from "../../src/errors.js";
import { sha256Hex } from "../../src/source/file.js";
import { corpusDir, fixture, hasCorpus, listFiles, tempDir } from "../helpers/fixture-files.js";
import { syntheticPdf } from "../helpers/synthetic-pdf.js";
import { MUTATIONS, type Mutation, mutate, seededRng } from "./mutate.js";

const SEED = 0x5eed2026;
const INPUTS_PER_MUTATION = 85;
const DEADLINE_MS = 5000;
/** Scheduling slack on a loaded machine; a hang would exceed it by far. */
const SLACK_MS = 5000;
const CONCURRENCY = 2;

/** Codes that mean "this input cannot be read": nothing may be cached for them. */
const REJECTIONS = new Set([
  "NOT_PDF",
  "DAMAGED_PDF",
  "ENCRYPTED_PDF",
  "BAD_PASSWORD",
  "UNSUPPORTED_SECURITY",
]);
/** Codes a mutated PDF may legitimately end in. */
const ALLOWED = new Set([...REJECTIONS, "EXTRACTION_TIMEOUT", "EXTRACTION_FAILED", "FILE_TOO_LARGE"]);

interface Seed {
  name: string;
  bytes: Uint8Array;
  /** Pages to extract: all for small seeds, the first few for long corpus PDFs. */
  pages?: number[];
}

function seeds(): Seed[] {
  const list: Seed[] = ["typography", "twocolumn", "layout", "paper", "encrypted"].map((name) => ({
    name,
    bytes: new Uint8Array(readFileSync(fixture(name))),
  }));
  list.push({ name: "synthetic", bytes: syntheticPdf(4, 12) });
  if (hasCorpus) {
    for (const name of ["ieee-cec2021-irace", "word-lsc-thermal", "acm-sigplan-lregex"]) {
      list.push({
        name,
        bytes: new Uint8Array(readFileSync(join(corpusDir, `${name}.pdf`))),
        pages: [1, 2],
      });
    }
  }
  return list;
}

const tmp = tempDir("citeproof-fuzz-");
afterAll(() => tmp.remove());
const cacheDir = join(tmp.dir, "cache");
const tally = new Map<string, number>();

async function runOne(seed: Seed, kind: Mutation, index: number, bytes: Uint8Array): Promise<void> {
  const path = join(tmp.dir, `${seed.name}-${kind}-${index}.pdf`);
  writeFileSync(path, bytes);
  const sha = sha256Hex(bytes);
  const label = `${seed.name} ${kind} #${index} (sha256 ${sha.slice(0, 12)})`;
  const started = Date.now();
  let outcome: string;
  try {
    const doc = await openDocument(path, { cacheDir, timeoutMs: DEADLINE_MS, pages: seed.pages });
    const report = await verifyEvidence(doc, [
      { kind: "quotation", page: 1, text: "the quick brown fox jumps over" },
      { kind: "quotation", page: 2, text: "ab" },
      { kind: "page", page: 1 },
      { kind: "quotation", text: "no page named for these words" },
    ]);
    expect(report.results, label).toHaveLength(4);
    for (const r of report.results) {
      expect(VERDICTS, label).toContain(r.verdict);
      expect(REASONS, label).toContain(r.reason);
    }
    outcome = doc.pageCount === 0 ? "verdicts (0 pages)" : "verdicts";
  } catch (error) {
    expect(error, `${label}: ${String(error)}`).toBeInstanceOf(CiteproofError);
    const coded = error as CiteproofError;
    expect(ALLOWED.has(coded.code), `${label}: ${coded.code} ${coded.message}`).toBe(true);
    expect(coded.message, label).not.toMatch(/\n/);
    if (REJECTIONS.has(coded.code)) {
      expect(listFiles(join(cacheDir, sha.slice(0, 2), sha)), label).toEqual([]);
    }
    outcome = coded.code;
  }
  expect(Date.now() - started, label).toBeLessThan(DEADLINE_MS + SLACK_MS);
  tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
}

describe("fuzz: mutated PDFs end in a coded error or verdicts", () => {
  const all = seeds();
  const rng = seededRng(SEED);
  for (const kind of MUTATIONS) {
    // Inputs are drawn up front, in a fixed order, so a seed always gives the same inputs.
    const inputs = Array.from({ length: INPUTS_PER_MUTATION }, (_, i) => {
      const seed = all[i % all.length];
      return { seed, index: i, bytes: mutate(seed.bytes, kind, rng) };
    });
    it(`${INPUTS_PER_MUTATION} inputs: ${kind}`, { timeout: 300_000 }, async () => {
      let next = 0;
      const lane = async () => {
        while (next < inputs.length) {
          const input = inputs[next++];
          await runOne(input.seed, kind, input.index, input.bytes);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    });
  }

  afterAll(() => {
    const total = [...tally.values()].reduce((a, b) => a + b, 0);
    const parts = [...tally.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`);
    console.log(`fuzz: ${total} inputs from ${all.length} seeds (seed ${SEED}): ${parts.join(", ")}`);
  });
});
