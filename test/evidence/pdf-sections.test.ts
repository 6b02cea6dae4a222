/**
 * Sections of PDF snapshots come from the document's layout: headings told by size, face and numbering,
 * in reading order; the span's section is the nearest heading before it. Truth: the headings each fixture's
 * LaTeX source sets (\section, \subsection, \subsubsection, \appendix), and none of its traps (a numbered
 * list, table rows starting with numbers, a bold run-in paragraph title, a running head).
 */
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDocument } from "../../src/document/open.js";
import { assembleRun } from "../../src/evidence/assemble.js";
import { createRun } from "../../src/evidence/run.js";
import { localSource, searchSource } from "../../src/evidence/sources.js";
import { findHeadings } from "../../src/layout/headings.js";
import { corpusDir, fixture } from "../helpers/fixture-files.js";
import { cleanTempDirs, tempDir, writeRecords } from "./helpers.js";

afterAll(() => cleanTempDirs());

async function headingsOf(pdf: string) {
  const doc = await openDocument(pdf, { withGeometry: true, cacheDir: join(tempDir(), "cache") });
  return findHeadings(doc.pages, (p) => doc.geometry.get(p)).map((h) => [h.page, h.title]);
}

describe("headings from layout", () => {
  it("numbered sections, subsections and an appendix of an article, and none of its traps", async () => {
    expect(await headingsOf(fixture("sections-article"))).toEqual([
      [1, "Abstract"],
      [1, "1 Introduction"],
      [1, "2 Method"],
      [1, "2.1 Calibration weights"],
      [1, "2.2 Variance estimation"],
      [1, "2.2.1 Replication weights"],
      [2, "3 Results"],
      [2, "3.1 Main estimates"],
      [3, "4 Discussion"],
      [3, "A Proofs"],
      [3, "A.1 Bounding the bias"],
    ]);
  });

  it("a two-column paper's roman sections in capitals and their lettered italic subsections", async () => {
    expect(await headingsOf(fixture("sections-twocolumn"))).toEqual([
      [1, "I. INTRODUCTION"],
      [1, "II. METHOD"],
      [1, "A. Data"],
      [1, "B. Weights"],
      [1, "III. RESULTS"],
      [1, "A. Main estimates"],
      [1, "IV. CONCLUSION"],
    ]);
  });

  const corpus = join(corpusDir, "stats-seldom.pdf");
  it.skipIf(!existsSync(corpus))("a corpus preprint's numbered headings three levels deep", async () => {
    const titles = (await headingsOf(corpus)).map(([, t]) => t);
    expect(titles.slice(0, 6)).toEqual([
      "Abstract",
      "1 Introduction",
      "1.1 Motivation",
      "1.2 Our contributions",
      "1.3 Related work",
      "2 Selectively dominant p-values",
    ]);
    expect(titles).toContain("3.1.1 Confidence regions for the winner");
  });
});

describe("sections of a PDF snapshot's spans", () => {
  it("a span's section is the nearest heading before it in reading order", async () => {
    const root = tempDir();
    mkdirSync(join(root, "library"));
    const pdf = join(root, "library", "paper.pdf");
    copyFileSync(fixture("sections-article"), pdf);
    const cacheDir = join(root, "cache");
    const run = createRun(join(root, "run"), { libraryRoot: root });
    const receipt = await localSource(run, pdf, { cacheDir });
    const at = (query: string) => {
      const hit = searchSource(run, receipt.source_id, query).hits[0];
      return { start: hit.start, end: hit.end };
    };
    const places = {
      intro: at("The introduction ends here with a sentence about strata"),
      list: at("Each wave was fielded by the same office"),
      calibration: at("Calibration weights are bounded below by one"),
      replication: at("The replication weights are stored with the public release"),
      results: at("The results section reports the variance"),
      proof: at("The proof of the variance bound uses the inclusion probabilities"),
    };
    writeRecords(run, {
      claims: Object.entries(places).map(([id, span]) => ({
        id,
        text: id,
        spans: [
          { claim: id, evidence_id: "web:x", source_id: receipt.source_id, access: "full_text", ...span },
        ],
      })),
    });
    const { result } = await assembleRun(run, { cacheDir });
    const section = Object.fromEntries(result.accepted.map((a) => [a.record_id, a.section]));
    expect(section).toEqual({
      intro: "1 Introduction",
      list: "1 Introduction",
      calibration: "2.1 Calibration weights",
      replication: "2.2.1 Replication weights",
      results: "3 Results",
      proof: "A Proofs",
    });
  });
});
