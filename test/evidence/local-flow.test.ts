// `source local` of a flow kind: the snapshot's text is exactly the flow document's text (what verify,
// locate and check-text read), so a span found in it has the offsets locate reports; the file is
// fresh through its local_file event and its hash, and stops being fresh when it changes.
import { appendFileSync, copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { locateInFlow } from "../../src/checks/flow-locate.js";
import { openFlow, sourceKind } from "../../src/document/flow/open.js";
import { assembleRun } from "../../src/evidence/assemble.js";
import { createRun } from "../../src/evidence/run.js";
import { SnapshotStore } from "../../src/evidence/snapshot.js";
import { localSource, searchSource } from "../../src/evidence/sources.js";
import { verifyRun } from "../../src/evidence/verify.js";
import { writeRunReport } from "../../src/report/run/index.js";
import { readSourceFile } from "../../src/source/file.js";
import { repoRoot } from "../helpers/fixture-files.js";
import { cleanTempDirs, expectCode, tempDir, writeRecords } from "./helpers.js";

afterAll(cleanTempDirs);

const QUOTE = "hold a large share of the world’s farmland";

async function flowRun() {
  const root = tempDir();
  mkdirSync(join(root, "library"));
  // An HTML page under a name that says nothing of its kind.
  const file = join(root, "library", "deltas.dat");
  copyFileSync(join(repoRoot, "test", "fixtures", "flow", "corpus.html"), file);
  const run = createRun(join(root, "run"), { libraryRoot: root });
  const receipt = await localSource(run, file, {
    cacheDir: join(root, "cache"),
    paper: { pmid: "12345678" },
  });
  return { root, file, run, receipt };
}

describe("a user-supplied file of a flow kind", () => {
  it("stores the flow document's text, its headings and its hash, logged as local_file", async () => {
    const { file, run, receipt } = await flowRun();
    expect(receipt).toMatchObject({
      origin: "user-supplied-file",
      media_type: "text/html",
      pages: null,
      asset: { path: "library/deltas.dat", bytes: expect.any(Number) },
    });
    expect(receipt.event).toMatchObject({
      type: "local_file",
      fresh: true,
      asset_sha256: receipt.asset?.sha256,
    });

    const source = await readSourceFile(file);
    const kind = sourceKind(source);
    if (kind === "pdf") throw new Error("read as a PDF");
    const doc = await openFlow(source, kind, { noCache: true });
    const { snapshot } = new SnapshotStore(run).require(receipt.source_id);
    expect(snapshot.text).toBe(doc.text);
    expect(snapshot.sections?.[0]).toEqual({
      start: doc.headings[0].startCp,
      title: `${doc.headings[0].number ?? ""} ${doc.headings[0].title}`.trim(),
    });

    // A span found in the snapshot stands where locate says the words stand.
    const hit = searchSource(run, receipt.source_id, QUOTE).hits[0];
    const located = locateInFlow(doc, QUOTE).occurrences[0].parts[0];
    expect([hit.start, hit.end]).toEqual([located.startCp, located.endCp]);
  });

  it("is fresh through its local_file event, and ASSET_HASH_MISMATCH once the file changes", async () => {
    const { root, file, run, receipt } = await flowRun();
    const hit = searchSource(run, receipt.source_id, QUOTE).hits[0];
    const claim = {
      id: "c1",
      text: "x",
      spans: [
        {
          claim: "deltas hold farmland",
          evidence_id: "pmid:12345678",
          source_id: receipt.source_id,
          start: hit.start,
          end: hit.end,
          access: "full_text",
        },
      ],
    };
    writeRecords(run, { claims: [claim] });
    const { result } = await assembleRun(run, { cacheDir: join(root, "cache") });
    expect(result.diagnostics.unresolved).toEqual([]);
    expect(result.accepted[0]).toMatchObject({ excerpt: QUOTE });

    // The run report shows the span's passage from the file, under its heading chain, the span marked.
    await verifyRun(run, { cacheDir: join(root, "cache") });
    await writeRunReport(run, { cacheDir: join(root, "cache"), format: "html" });
    const html = readFileSync(join(run.dir, "outputs", "report.html"), "utf8");
    expect(html).toMatch(/<figure class="passage passage-match" data-paragraph="\d+" data-start-cp="\d+"/u);
    expect(html).toContain('<p class="chain">1 Introduction &middot; paragraph');
    expect(html).toContain(`<mark class="mark-match">${QUOTE}</mark>`);

    appendFileSync(file, "<p>one more paragraph</p>\n");
    expectCode(
      (await assembleRun(run, { cacheDir: join(root, "cache") })).result,
      "ASSET_HASH_MISMATCH",
      "claims[0].spans[0]",
    );
  });

  it("refuses a password or a PDF's origin for a file that is not a PDF", async () => {
    const { root, file, run } = await flowRun();
    await expect(
      localSource(run, file, { cacheDir: join(root, "cache"), password: "x" }),
    ).rejects.toMatchObject({
      code: "USAGE",
    });
    await expect(
      localSource(run, file, { cacheDir: join(root, "cache"), origin: "user-supplied-pdf" }),
    ).rejects.toMatchObject({ code: "USAGE" });
  });
});
