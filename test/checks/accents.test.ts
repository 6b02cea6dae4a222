// Accented names as pdfTeX sets them: OT1 fonts draw each accent as a glyph of its own before its
// letter (page 1 reads "Cs¨org˝o"), T1 fonts hold the accented letters (page 2 reads "Csörgő"); see
// fixtures/src/accents.tex. A quotation typed as a reader sees it must PASS on both; a missing
// accent differs in form and never PASSes; cite-check stays character-exact but says why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { citeCheck } from "../../src/checks/cite-check/run.js";
import { checkContext, checkRecord } from "../../src/checks/verify.js";
import { type OpenedDocument, openDocument } from "../../src/document/open.js";
import { fixture, repoRoot, tempDir } from "../helpers/fixture-files.js";

const PDF = fixture("accents");
let doc: OpenedDocument;
let cache: ReturnType<typeof tempDir>;
beforeAll(async () => {
  doc = await openDocument(PDF, { noCache: true });
  cache = tempDir();
});
afterAll(() => cache.remove());

const check = (page: number, text: string) =>
  checkRecord(checkContext(doc), { kind: "quotation", page, text });

describe("accents in the quotation check", () => {
  it("reads the OT1 page with its accents apart and the T1 page with composed letters", () => {
    expect(doc.pages[0]!.text).toContain("Cs\u00a8org\u02ddo");
    expect(doc.pages[1]!.text).toContain("Csörgő");
  });

  it.each([1, 2])("passes names typed as a reader sees them on page %i", (page) => {
    for (const text of [
      "results of Csörgő, Szyszkowicz and Wang extend",
      "the bounds of Giné and Götze sharpen it",
      "argument of Kočka and Erdős follows the naïve route through the café examples",
      // Decomposed input (combining marks after their letters) is the same text.
      "the bounds of Gine\u0301 and Go\u0308tze sharpen it",
    ]) {
      const result = check(page, text);
      expect(result, text).toMatchObject({ verdict: "PASS", reason: "found" });
    }
  });

  it("passes the raw OT1 form of the text layer too", () => {
    expect(check(1, "results of Cs\u00a8org\u02ddo, Szyszkowicz and Wang")).toMatchObject({
      verdict: "PASS",
    });
  });

  it.each([1, 2])("fails a missing or different accent on page %i as form-differs, never PASS", (page) => {
    expect(check(page, "the bounds of Gine and Gotze sharpen it")).toMatchObject({
      verdict: "FAIL",
      reason: "form-differs",
    });
    expect(check(page, "the bounds of Ginè and Götze sharpen it")).toMatchObject({
      verdict: "FAIL",
      reason: "form-differs",
    });
  });
});

describe("accents in cite-check", () => {
  const PAGE = { left: 0, bottom: 0, right: 612, top: 792 };
  const run = (page: number, quote: string) =>
    citeCheck(
      {
        source: { path: PDF },
        citations: [{ quote, page, bounding_box: PAGE }],
        normalization: "whitespace_v1",
        timeoutMs: 60_000,
        maxOutputChars: 200_000,
      },
      { allowRoots: [repoRoot], cacheDir: cache.dir },
    );

  it("stays character-exact, but says when the quote matches with accents recombined", async () => {
    const [ot1] = (await run(1, "Csörgő, Szyszkowicz and Wang")).results;
    expect(ot1).toMatchObject({ verdict: "unmatched", reason: "not_on_page" });
    expect(ot1.message).toContain("accents set apart from their letters are recombined");
    const [t1] = (await run(2, "Csörgő, Szyszkowicz and Wang")).results;
    expect(t1).toMatchObject({ verdict: "verified_exact" });
    const [missing] = (await run(1, "Csorgo, Szyszkowicz and Wang")).results;
    expect(missing).toMatchObject({ reason: "not_on_page" });
    expect(missing.message).not.toContain("recombined");
  });
});
