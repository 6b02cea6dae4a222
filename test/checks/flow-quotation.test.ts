import { describe, expect, it } from "vitest";
import type { EvidenceRecord } from "../../src/checks/evidence-record.js";
import { verifyFlow } from "../../src/checks/flow-verify.js";
import { codeOf, readFlow } from "../helpers/flow-source.js";

const SOURCE = [
  "# 1 Introduction",
  "",
  "The study of *river deltas* began long ago, and the field has grown since then.",
  "",
  "# 2 Methods",
  "",
  "We describe the methods here in some detail for the reader.",
  "",
  "## 2.1 Data sources",
  "",
  "Samples were taken from 14 sites along the coast in 2019.",
  "The 𝛼 coefficient was fitted by least squares over all samples.",
  "",
  "## 2.2 Models",
  "",
  "A linear model was fitted to the measurements of every site.",
  "",
  "# 3 Results",
  "",
  "The deltas grew by 12% on average over the decade studied.[^1]",
  "",
  "![Figure 1: Growth of the deltas.](growth.png)",
  "",
  "[^1]: Measured from satellite images taken every spring.",
].join("\n");

async function verify(records: EvidenceRecord[]) {
  const doc = await readFlow("markdown", SOURCE);
  return verifyFlow(doc, records, "notes.md");
}

const q = (text: string, section?: string): EvidenceRecord => ({
  kind: "quotation",
  text,
  ...(section !== undefined ? { section } : {}),
});

describe("quotations on a flow source", () => {
  it("PASS found in the document and in the section named, its subsections included", async () => {
    const report = await verify([
      q("the study of river deltas began long ago"),
      q("Samples were taken from 14 sites", "2.1 Data sources"),
      q("Samples were taken from 14 sites", "Data sources"),
      q("Samples were taken from 14 sites", "2.1"),
      q("Samples were taken from 14 sites", "Methods"),
      q("Samples were taken from 14 sites", "§ 2"),
    ]);
    expect(report.results.map((r) => `${r.verdict} ${r.reason}`)).toEqual(Array(6).fill("PASS found"));
    const match = (report.results[1].evidence.matches as Record<string, unknown>[])[0];
    expect(match).toMatchObject({
      section: "2 Methods > 2.1 Data sources",
      region: "body",
      text: "Samples were taken from 14 sites",
    });
    expect(report.results[1].message).toBe(
      'found in section "2.1 Data sources" (paragraph 6, under "2 Methods > 2.1 Data sources")',
    );
  });

  it("code-point offsets: an astral character before the match counts once", async () => {
    const doc = await readFlow("markdown", SOURCE);
    const report = verifyFlow(doc, [q("coefficient was fitted by least squares")], "notes.md");
    const match = (report.results[0].evidence.matches as { startCp: number; endCp: number }[])[0];
    expect(Array.from(doc.text).slice(match.startCp, match.endCp).join("")).toBe(
      "coefficient was fitted by least squares",
    );
    expect(doc.text.indexOf("coefficient")).toBe(match.startCp + 1);
  });

  it("FAIL wrong-section names the heading chain; no-such-section lists the headings", async () => {
    const report = await verify([
      q("A linear model was fitted", "2.1 Data sources"),
      q("A linear model was fitted", "Discussion"),
    ]);
    expect(report.results[0]).toMatchObject({
      verdict: "FAIL",
      reason: "wrong-section",
      message: 'not found in section "2.1 Data sources"; the words are under "2 Methods > 2.2 Models"',
    });
    expect(report.results[1]).toMatchObject({ verdict: "FAIL", reason: "no-such-section" });
    expect(report.results[1].message).toContain('"2.1 Data sources"');
  });

  it("FAIL absent with the closest passage; form-differs on a changed symbol; FLAG under four words", async () => {
    const report = await verify([
      q("Samples were taken from 41 sites along the coast", "2.1"),
      q("The deltas grew by 12‰ on average"),
      q("river deltas"),
    ]);
    expect(report.results.map((r) => `${r.verdict} ${r.reason}`)).toEqual([
      "FAIL absent",
      "FAIL form-differs",
      "FLAG no-quotation",
    ]);
    expect(report.results[0].message).toContain(
      'closest passage: "Samples were taken from 14 sites along the coast"',
    );
    expect(report.results[0].message).toContain("source has `14` where the quotation has `41`");
  });

  it("a note's words: found, region footnote; an elided quotation: found-elided", async () => {
    const report = await verify([
      q("Measured from satellite images taken"),
      q("We describe the methods … for the reader"),
    ]);
    expect(report.results[0]).toMatchObject({ verdict: "PASS", reason: "found" });
    expect((report.results[0].evidence.matches as { region: string }[])[0].region).toBe("footnote");
    expect(report.results[1]).toMatchObject({ verdict: "PASS", reason: "found-elided" });
    expect(report.results[1].message).toContain('"here in some detail" (4 words)');
  });

  it("figure labels from captions", async () => {
    const report = await verify([
      { kind: "figure", label: "1" },
      { kind: "figure", label: "2" },
    ]);
    expect(report.results.map((r) => `${r.verdict} ${r.reason}`)).toEqual(["PASS found", "FAIL absent"]);
  });

  it("page on a source without printed pages is EVIDENCE_INVALID naming its locators", async () => {
    const err = await codeOf(
      verify([{ kind: "quotation", text: "the field has grown since then", page: 2 }]),
    );
    expect(err).toBe("EVIDENCE_INVALID");
    await expect(verify([{ kind: "page", page: 1 }])).rejects.toThrow(
      'record 0: field "page": notes.md is Markdown, which has no pages: name a section',
    );
  });
});

describe("hostile text around a quotation", () => {
  it("soft hyphens, no-break spaces, direction marks and nested markup inside the quoted words", async () => {
    const html =
      "<h2>1 Sources</h2><p>The <b>ar\u00adchi<i>val</i></b>&nbsp;re\u00adcords of the \u200fport\u200e <span><em>office</em></span> were kept in Arabic \u202bمرحبا بكم\u202c too.</p>";
    const doc = await readFlow("html", html);
    const report = verifyFlow(
      doc,
      [
        { kind: "quotation", text: "The archival records of the port office", section: "Sources" },
        { kind: "quotation", text: "kept in Arabic \u200fمرحبا بكم too", section: "1" },
        { kind: "quotation", text: "The archival records of the sea office", section: "Sources" },
      ],
      "page.html",
    );
    expect(report.results.map((r) => `${r.verdict} ${r.reason}`)).toEqual([
      "PASS found",
      "PASS found",
      "FAIL absent",
    ]);
  });

  it("CRLF and a UTF-16 byte-order mark in Markdown", async () => {
    const text = "# 2 Notes\r\n\r\nThe words run over\r\ntwo lines here.\r\n";
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    const doc = await readFlow("markdown", new Uint8Array(bytes));
    const report = verifyFlow(
      doc,
      [{ kind: "quotation", text: "words run over two lines", section: "Notes" }],
      "n.md",
    );
    expect(report.results[0]).toMatchObject({ verdict: "PASS", reason: "found" });
  });

  it("dots the source prints are matched as written, and an elided quotation under another heading is named", async () => {
    const doc = await readFlow(
      "markdown",
      [
        "# 1 Units",
        "",
        "Sizes are K, M, G (powers of 1024) or KB, MB, ... (powers of 1000) in every listing.",
        "",
        "# 2 Colours",
        "",
        "Colour is off by default and with the never setting of the option.",
      ].join("\n"),
    );
    const report = verifyFlow(
      doc,
      [
        q("or KB, MB, ... (powers of 1000) in every listing", "Units"),
        q("or KB, MB, ... (powers of 1000) in every listing", "Colours"),
        q("Colour is off by default … of the option", "Units"),
        q("Colour is off by default … of the option", "Colours"),
      ],
      "units.md",
    );
    expect(report.results.map((r) => `${r.verdict} ${r.reason} ${r.message}`)).toEqual([
      'PASS found found in section "Units" (paragraph 2, under "1 Units")',
      'FAIL wrong-section not found in section "Colours"; the words are under "1 Units"',
      'FAIL wrong-section not found in section "Units"; the words are under "2 Colours"',
      expect.stringMatching(/^PASS found-elided/u),
    ]);
  });
});
