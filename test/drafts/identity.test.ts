/**
 * The bound file is the cited work: the entry's title on the file's first two pages, or in the PDF's
 * metadata title (the Info dictionary's /Title, read through the engine). A metadata title that
 * lacks the entry's title never makes the file differ by itself.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a script without types; writePdf(path, {title, doi, sentences, metadataTitle}).
import { writePdf } from "../../scripts/drafts-gen/generate.mjs";
import { readBibliography } from "../../src/drafts/bibliography.js";
import { checkDraft } from "../../src/drafts/check-draft.js";
import { tempDir } from "../helpers/fixture-files.js";

const scratch = tempDir("citeproof-identity-");
afterAll(() => scratch.remove());

// Enough text that the pages are read, not taken for a scan.
const sentences = [
  Array.from(
    { length: 6 },
    (_, i) => `Harbour survey ${i + 1} counted wooden boats moored on the eastern quay and the western pier.`,
  ),
];

async function identities(metadataTitle: string | undefined) {
  writePdf(join(scratch.dir, "a.pdf"), {
    title: "Printed Heading That Names Nothing Of The Entry",
    doi: "10.5555/none",
    sentences,
    metadataTitle,
  });
  const bibPath = join(scratch.dir, "refs.bib");
  const bib = await readBibliography(
    [
      "@article{meta, title = {Boats Along the Eastern Quay in Winter}, year = 2020, file = {a.pdf}}",
      "@article{other, title = {A Study of Mountain Forests and Their Rivers}, year = 2021, file = {a.pdf}}",
    ].join("\n"),
    bibPath,
  );
  const report = await checkDraft("See [@meta, p. 1] and [@other, p. 1].", bib, {
    bibliographyPath: bibPath,
    draftName: "draft.md",
    roots: [scratch.dir],
    fetch: false,
    open: { noCache: true },
  });
  return Object.fromEntries(report.sources[0].entries.map((e) => [e.key, e.identity]));
}

describe("the bound file's identity", () => {
  it("matches by the PDF's metadata title where the pages do not print the title", async () => {
    expect(await identities("Boats along the eastern quay in winter")).toEqual({
      meta: "matches",
      other: "differs",
    });
  });

  it("without a metadata title, the pages alone decide", async () => {
    expect(await identities(undefined)).toEqual({ meta: "differs", other: "differs" });
  });
});
