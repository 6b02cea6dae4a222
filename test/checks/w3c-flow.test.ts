// W3C Web Annotations on a flow source: the TextQuoteSelector's words are found in the whole document
// (PASS, or FAIL with a word changed), the prefix and suffix checked beside them, and a
// TextPositionSelector's code-point offsets compared with the match: evidence beside the verdict.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CitationsReport } from "../../src/checks/citation-formats.js";
import { locateOperation } from "../../src/operations/locate.js";
import type { OperationContext } from "../../src/operations/operation.js";
import { verifyCitationsOperation } from "../../src/operations/verify-citations.js";
import { repoRoot, tempDir } from "../helpers/fixture-files.js";
import { CORPUS_QUOTE } from "../helpers/flow-source.js";

const CORPUS = join(repoRoot, "test", "fixtures", "flow", "corpus.md");
let work: ReturnType<typeof tempDir>;
let ctx: OperationContext;
let at: { start: number; end: number };
beforeAll(async () => {
  work = tempDir("citeproof-w3c-flow-");
  ctx = { cwd: work.dir, access: "anywhere", open: { cacheDir: join(work.dir, "cache") } };
  const located = await locateOperation.run({ source: CORPUS, text: CORPUS_QUOTE }, ctx);
  if ("pages" in located.document) throw new Error("read as a PDF");
  const part = (located as { occurrences: { parts: { startCp: number; endCp: number }[] }[] }).occurrences[0]
    .parts[0];
  at = { start: part.startCp, end: part.endCp };
});
afterAll(() => work.remove());

const annotation = (id: string, selector: unknown) => ({
  "@context": "http://www.w3.org/ns/anno.jsonld",
  id,
  type: "Annotation",
  target: { source: "corpus.md", selector },
});

async function run(citations: unknown[]): Promise<CitationsReport> {
  return verifyCitationsOperation.run({ source: CORPUS, format: "w3c", citations }, ctx);
}

describe("--citations-format w3c on a flow source", () => {
  it("checks the quote, its context and its position", async () => {
    const report = await run([
      annotation("a", [
        { type: "TextQuoteSelector", exact: CORPUS_QUOTE, prefix: "River deltas ", suffix: " and many" },
        { type: "TextPositionSelector", start: at.start, end: at.end },
      ]),
      annotation("moved", [
        { type: "TextQuoteSelector", exact: CORPUS_QUOTE },
        { type: "TextPositionSelector", start: at.start + 5, end: at.end + 5 },
      ]),
      annotation("context", { type: "TextQuoteSelector", exact: CORPUS_QUOTE, prefix: "Ocean basins " }),
      annotation("changed", { type: "TextQuoteSelector", exact: "hold a large share of the world's zebras" }),
    ]);
    expect((report.document as { kind: string }).kind).toBe("markdown");
    expect(report.results.map((r) => [r.id, r.verdict])).toEqual([
      ["a", "PASS"],
      ["moved", "PASS"],
      ["context", "PASS"],
      ["changed", "FAIL"],
    ]);
    expect(report.results[0].selector).toMatchObject({ context: "found", position: "found", ...at });
    expect(report.results[1].selector).toMatchObject({ position: "not-found" });
    expect(report.results[1].message).toContain("TextPositionSelector");
    expect(report.results[2].selector).toMatchObject({ context: "not-found" });
  });

  it("refuses a page on a source without pages, and a bad position", async () => {
    await expect(
      run([annotation("p", { type: "TextQuoteSelector", exact: CORPUS_QUOTE, page: 2 })]),
    ).rejects.toMatchObject({ code: "EVIDENCE_INVALID" });
    await expect(
      run([
        annotation("bad", [
          { type: "TextQuoteSelector", exact: CORPUS_QUOTE },
          { type: "TextPositionSelector", start: 9, end: 3 },
        ]),
      ]),
    ).rejects.toMatchObject({ code: "EVIDENCE_INVALID" });
  });
});
