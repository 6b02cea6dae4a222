// Results kept between runs for a flow source: a verify keeps each quotation's result in the source's
// cache entry, named by the derivation key of the flow reader's and checks' code; a later verify of the
// same records answers from them without reading the parsed document back, a new record reads it and
// is checked, a summary of the wrong shape is refused, and a locator the source lacks is still refused.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { EvidenceRecord } from "../../src/checks/evidence-record.js";
import { verifyFlow } from "../../src/checks/flow-verify.js";
import { ExtractionCache } from "../../src/document/cache.js";
import type { SourceBytes } from "../../src/document/flow/model.js";
import { openFlow } from "../../src/document/flow/open.js";
import { verifyFlowSource } from "../../src/reading/flow-results.js";
import { resultsRecordName } from "../../src/reading/result-cache.js";
import { sha256Hex } from "../../src/source/file.js";
import { derivationKey } from "../../src/util/derivation.js";
import { listFiles, repoRoot, tempDir } from "../helpers/fixture-files.js";
import { CORPUS_EVIDENCE, codeOf } from "../helpers/flow-source.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let counter = 0;
const fresh = (name: string) => join(tmp.dir, `${name}-${counter++}`);

const bytes = new Uint8Array(readFileSync(join(repoRoot, "test", "fixtures", "flow", "corpus.md")));
const SOURCE: SourceBytes = { bytes, sha256: sha256Hex(bytes), origin: "corpus.md" };
const RECORDS: EvidenceRecord[] = [
  ...CORPUS_EVIDENCE,
  {
    id: "moved",
    kind: "quotation",
    text: "Earlier work treated each delta on its own terms",
    section: "2.1",
  },
];

const documentFiles = (root: string) =>
  listFiles(root)
    .filter((f) => /\/rec-flow-[0-9a-f]{16}\.bin$/.test(f))
    .map((f) => join(root, f));
const resultFiles = (root: string) => listFiles(root).filter((f) => /\/rec-flow-results-/.test(f));

async function wholeDocumentReport(records: EvidenceRecord[]) {
  return verifyFlow(await openFlow(SOURCE, "markdown", { noCache: true }), records, "corpus.md");
}

describe("a flow source's results kept between runs", () => {
  it("answers a second verify of the same records from the kept results, reading no document", async () => {
    const root = fresh("kept");
    const first = await verifyFlowSource(SOURCE, "markdown", RECORDS, "corpus.md", { cacheDir: root });
    expect(first.results.map((r) => `${r.verdict} ${r.reason}`)).toEqual([
      "PASS found",
      "FAIL absent",
      "FAIL wrong-section",
    ]);
    expect(first).toEqual(await wholeDocumentReport(RECORDS));
    expect(resultFiles(root).length).toBeGreaterThan(0);
    // The parsed document gone: a run that needed it would read the source again and store it.
    for (const file of documentFiles(root)) rmSync(file);
    expect(await verifyFlowSource(SOURCE, "markdown", RECORDS, "corpus.md", { cacheDir: root })).toEqual(
      first,
    );
    expect(documentFiles(root)).toEqual([]);
    const reordered = [RECORDS[2], RECORDS[0]];
    expect(
      (await verifyFlowSource(SOURCE, "markdown", reordered, "corpus.md", { cacheDir: root })).results,
    ).toEqual([first.results[2], first.results[0]]);
    expect(documentFiles(root)).toEqual([]);
    // A record not kept yet reads the document.
    const other: EvidenceRecord = {
      id: "new",
      kind: "quotation",
      text: "hold a large share of the world's farmland",
    };
    const withOther = await verifyFlowSource(SOURCE, "markdown", [...RECORDS, other], "corpus.md", {
      cacheDir: root,
    });
    expect(withOther).toEqual(await wholeDocumentReport([...RECORDS, other]));
    expect(documentFiles(root).length).toBe(1);
  });

  it("keeps nothing with noCache, and answers alike", async () => {
    const report = await verifyFlowSource(SOURCE, "markdown", RECORDS, "corpus.md", { noCache: true });
    expect(report).toEqual(await wholeDocumentReport(RECORDS));
  });

  it("reads the document again when the kept summary has another shape or names other bytes", async () => {
    const root = fresh("summary");
    const first = await verifyFlowSource(SOURCE, "markdown", RECORDS, "corpus.md", { cacheDir: root });
    const cache = new ExtractionCache(root, SOURCE.sha256);
    const name = `${resultsRecordName("flow-results")}-document`;
    expect(cache.readRecord(name)).toEqual(first.document);
    for (const bad of [
      null,
      { ...first.document, sha256: "0".repeat(64) },
      { ...first.document, headings: -1 },
    ]) {
      cache.writeRecord(name, bad);
      for (const file of documentFiles(root)) rmSync(file);
      expect(await verifyFlowSource(SOURCE, "markdown", RECORDS, "corpus.md", { cacheDir: root })).toEqual(
        first,
      );
      expect(documentFiles(root).length).toBe(1);
    }
  });

  it("refuses a page on a source without printed pages, kept results or not", async () => {
    const root = fresh("page");
    await verifyFlowSource(SOURCE, "markdown", RECORDS, "corpus.md", { cacheDir: root });
    const paged: EvidenceRecord[] = [...RECORDS, { id: "p", kind: "page", page: 2 }];
    expect(await codeOf(verifyFlowSource(SOURCE, "markdown", paged, "corpus.md", { cacheDir: root }))).toBe(
      "EVIDENCE_INVALID",
    );
  });

  it("names the results by the derivation key of the flow reader's and checks' code", () => {
    expect(resultsRecordName("flow-results")).toMatch(
      new RegExp(`^flow-results-${derivationKey("flow-results")}-[0-9a-f]{8}$`),
    );
    expect(derivationKey("flow-results")).not.toBe(derivationKey("results"));
  });
});
