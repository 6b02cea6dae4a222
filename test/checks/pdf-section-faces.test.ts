// A PDF's headings told by how their lines are set, from the face and size each line of the
// extraction carries: unnumbered headings (`\section*`, `\subsection*`, none a usual section name) set
// larger and bold are headings, their levels from their sizes; a bold line of the body set alone, at
// the body's size, may be a heading or not, so no section is trusted across it (FLAG
// headings-unreadable, never a false PASS). The PDFs are built by pdflatex from
// scripts/fixtures/section-pdf.mjs, whose source is the ground truth.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AFTER_BOLD_LINE,
  BOLD_BODY_LINE,
  buildSectionPdf,
  buildUnnumberedPdf,
  hasEngine,
  SECTION_PARAGRAPHS,
  UNNUMBERED_PARAGRAPHS,
  // @ts-expect-error: a plain ES module script without types
} from "../../scripts/fixtures/section-pdf.mjs";
import { PdfOutline } from "../../src/checks/pdf-outline.js";
import { type CheckContext, checkContext, checkRecord } from "../../src/checks/verify.js";
import { openDocument } from "../../src/document/open.js";

type Truth = Record<string, { chain: string; words: string }>;
const unnumbered = UNNUMBERED_PARAGRAPHS as Truth;
const numbered = SECTION_PARAGRAPHS as Truth;

describe.skipIf(!hasEngine("pdflatex"))("PDF headings told by their lines' face and size", () => {
  const work = mkdtempSync(join(tmpdir(), "citeproof-faces-"));
  let plain: CheckContext;
  let bold: CheckContext;
  let plainOutline: PdfOutline;
  beforeAll(async () => {
    writeFileSync(join(work, "unnumbered.pdf"), buildUnnumberedPdf());
    writeFileSync(join(work, "bold-line.pdf"), buildSectionPdf({ boldLine: true }));
    const plainDoc = await openDocument(join(work, "unnumbered.pdf"), { noCache: true });
    plain = checkContext(plainDoc);
    plainOutline = new PdfOutline(plainDoc.pages);
    bold = checkContext(await openDocument(join(work, "bold-line.pdf"), { noCache: true }));
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const check = (context: CheckContext, words: string, section: string) =>
    checkRecord(context, { kind: "quotation", section, text: words });

  it("reads unnumbered headings set larger and bold, a subsection under its section by size", () => {
    expect(plainOutline.headings.map((_, i) => plainOutline.chainName(i))).toEqual([
      "Harbour survey",
      "Harbour survey > Quay walks",
      "Ledger study",
      "Outlook for the port",
    ]);
    expect(plainOutline.doubtful).toEqual([]);
  });

  it("passes every paragraph under its own heading and its parent, and fails it under another", () => {
    for (const [key, { chain, words }] of Object.entries(unnumbered)) {
      for (const name of chain.split(" > ")) {
        const r = check(plain, words, name);
        expect([key, name, r.verdict, r.reason]).toEqual([key, name, "PASS", "found"]);
      }
      const other = chain.startsWith("Ledger") ? "Outlook for the port" : "Ledger study";
      const r = check(plain, words, other);
      expect([key, r.verdict, r.reason]).toEqual([key, "FAIL", "wrong-section"]);
      expect(r.message).toContain(`"${chain}"`);
    }
  });

  it("never passes words after a bold body line that looks like a heading, nor takes the line as one", () => {
    // Before the bold line, and in the other sections, nothing changes.
    expect(check(bold, numbered.results!.words, "Results").verdict).toBe("PASS");
    expect(check(bold, numbered.discussion!.words, "4 Discussion").verdict).toBe("PASS");
    expect(check(bold, numbered.data!.words, "Methods").verdict).toBe("PASS");
    // After it: the line may end "3 Results" or not.
    const after = check(bold, AFTER_BOLD_LINE.words, "Results");
    expect([after.verdict, after.reason]).toEqual(["FLAG", "headings-unreadable"]);
    expect(after.message).toContain("face or size alone");
    const named = check(bold, AFTER_BOLD_LINE.words, BOLD_BODY_LINE);
    expect([named.verdict, named.reason]).toEqual(["FLAG", "headings-unreadable"]);
    // Words of another section are not in it whatever the line is.
    expect(check(bold, AFTER_BOLD_LINE.words, "Methods").reason).toBe("wrong-section");
  });
});
