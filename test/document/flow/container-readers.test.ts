// Odd real-world cases of the DOCX, ODT, EPUB and JATS readers, each source written part by part in its
// format's own markup: numbering, fields, hidden and deleted text, notes, frames, page lists, encodings.
import { describe, expect, it } from "vitest";
import { detectKind } from "../../../src/document/flow/detect.js";
import type { FlowDocument, FlowKind } from "../../../src/document/flow/model.js";
import { ZipArchive as Zip } from "../../../src/document/flow/zip.js";
import { docx, epub, odt, wordPart, wp, xhtml } from "../../helpers/container-sources.js";
import { blocksOf, readFlow } from "../../helpers/flow-source.js";
import { zipFile } from "../../helpers/zip-file.js";

const read = (kind: FlowKind, bytes: Uint8Array | string) => readFlow(kind, bytes);

function headings(doc: FlowDocument): string[] {
  return doc.headings.map((h) => `${h.level} ${h.number ?? "-"} ${h.title} ^${h.parent}`);
}

const STYLES = wordPart(
  "styles",
  "styles",
  `<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/><w:pPr><w:numPr><w:numId w:val="1"/><w:ilvl w:val="0"/></w:numPr></w:pPr></w:style>
   <w:style w:type="paragraph" w:styleId="berschrift2"><w:name w:val="heading 2"/><w:basedOn w:val="berschrift1"/><w:pPr><w:numPr><w:numId w:val="1"/><w:ilvl w:val="1"/></w:numPr></w:pPr></w:style>
   <w:style w:type="paragraph" w:styleId="Beschriftung"><w:name w:val="caption"/></w:style>
   <w:style w:type="paragraph" w:styleId="Anhang"><w:name w:val="Appendix"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>`,
);
const NUMBERING = wordPart(
  "numbering",
  "numbering",
  `<w:abstractNum w:abstractNumId="7"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl><w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/></w:lvl></w:abstractNum>
   <w:abstractNum w:abstractNumId="8"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperLetter"/><w:lvlText w:val="Appendix %1"/></w:lvl></w:abstractNum>
   <w:num w:numId="1"><w:abstractNumId w:val="7"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="8"/></w:num>
   <w:num w:numId="3"><w:abstractNumId w:val="8"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/></w:lvlOverride></w:num>`,
);

describe("DOCX", () => {
  it("numbers headings as Word prints them, from localised styles and numbering.xml", async () => {
    const body = [
      wp("Introduction", "berschrift1"),
      wp("Scope", "berschrift2"),
      wp("Terms", "berschrift2"),
      wp("Methods", "berschrift1"),
      wp("Data", "berschrift2"),
      wp("Tables", "Anhang", '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="2"/></w:numPr>'),
      wp("Figures", "Anhang", '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="2"/></w:numPr>'),
      wp("Code", "Anhang", '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="3"/></w:numPr>'),
    ].join("");
    const doc = await read("docx", docx(body, [STYLES, NUMBERING], ["styles", "numbering"]));
    expect(headings(doc)).toEqual([
      "1 1 Introduction ^-1",
      "2 1.1 Scope ^0",
      "2 1.2 Terms ^0",
      "1 2 Methods ^-1",
      "2 2.1 Data ^3",
      "1 Appendix A Tables ^-1",
      "1 Appendix B Figures ^-1",
      "1 Appendix E Code ^-1",
    ]);
  });

  it("prints fields' results, never their codes, and leaves out hidden and deleted runs", async () => {
    const r = (t: string, rPr = "") => `<w:r>${rPr}<w:t xml:space="preserve">${t}</w:t></w:r>`;
    const body = `<w:p>${r("The ")}<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> HYPERLINK "http://x" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${r("linked words")}<w:r><w:fldChar w:fldCharType="end"/></w:r>${r(" stay,")}<w:del>${r(" deleted")}</w:del>${r(" secret", "<w:rPr><w:vanish/></w:rPr>")}${r(" and the re")}<w:r><w:softHyphen/></w:r>${r("sult\u00a0holds\u200f.")}</w:p>`;
    const doc = await read("docx", docx(body));
    expect(doc.text).toBe("The linked words stay, and the result holds.");
  });

  it("labels captions by SEQ fields and equations by the number after a tab beside an equation object", async () => {
    const seq = (name: string, n: string) =>
      `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> SEQ ${name} \\* ARABIC </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${n}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
    const body = [
      `<w:p><w:pPr><w:pStyle w:val="Beschriftung"/></w:pPr><w:r><w:t xml:space="preserve">Tabelle </w:t></w:r>${seq("Tabelle", "2")}<w:r><w:t>: Counts by site.</w:t></w:r></w:p>`,
      `<w:p><w:r><w:object/></w:r><w:r><w:tab/><w:t>(3.1)</w:t></w:r></w:p>`,
      `<w:p><w:r><w:t>A plain paragraph ends (4)</w:t></w:r></w:p>`,
    ].join("");
    const doc = await read("docx", docx(body, [STYLES], ["styles"]));
    expect(doc.labels.map((l) => `${l.kind} ${l.label}`)).toEqual(["table Tabelle 2", "equation (3.1)"]);
    expect(blocksOf(doc)[0]).toBe("caption caption: Tabelle 2: Counts by site.");
  });

  it("a plain `Table N` paragraph beside a table, bookmarks between, is the table's caption; elsewhere it is not", async () => {
    const table = `<w:tbl><w:tr><w:tc>${wp("Yield per hectare")}</w:tc></w:tr></w:tbl>`;
    const body = [
      wp("Table 3: Yields by field."),
      '<w:bookmarkStart w:id="1" w:name="t3"/>',
      table,
      wp("Table 3 shows the yields."),
    ];
    const doc = await read("docx", docx(body.join("")));
    expect(blocksOf(doc)).toEqual([
      "caption caption: Table 3: Yields by field.",
      "table-cell table: Yield per hectare",
      "paragraph body: Table 3 shows the yields.",
    ]);
  });

  it("labels an equation numbered in a table row, as theses set them", async () => {
    const math = `<w:p><m:oMath xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:r><m:t>a+b</m:t></m:r></m:oMath></w:p>`;
    const row = (cells: string[]) => `<w:tr>${cells.map((c) => `<w:tc>${c}</w:tc>`).join("")}</w:tr>`;
    const body = `<w:tbl>${row([wp(""), math, wp("(2)")])}${row([wp("Site"), wp("(3)")])}</w:tbl>`;
    const doc = await read("docx", docx(body));
    expect(doc.labels.map((l) => `${l.kind} ${l.label} ${blocksOf(doc)[l.block]}`)).toEqual([
      "equation (2) table-cell table: a+b",
    ]);
  });

  it("puts footnotes then endnotes after the body, each under the heading of its reference", async () => {
    const ref = (kind: string, id: string) => `<w:r><w:${kind}Reference w:id="${id}"/></w:r>`;
    const body = [
      wp("First", "berschrift1"),
      `<w:p><w:r><w:t>Body one.</w:t></w:r>${ref("endnote", "1")}</w:p>`,
      wp("Second", "berschrift1"),
      `<w:p><w:r><w:t>Body two.</w:t></w:r>${ref("footnote", "2")}</w:p>`,
    ].join("");
    const note = (kind: string, id: string, text: string) =>
      `<w:${kind} w:id="${id}">${wp(text)}</w:${kind}>`;
    const doc = await read(
      "docx",
      docx(
        body,
        [
          STYLES,
          NUMBERING,
          wordPart(
            "footnotes",
            "footnotes",
            `<w:footnote w:type="separator" w:id="0">${wp("----")}</w:footnote>${note("footnote", "2", "A footnote of the second part.")}`,
          ),
          wordPart("endnotes", "endnotes", note("endnote", "1", "An endnote of the first part.")),
        ],
        ["styles", "numbering", "footnotes", "endnotes"],
      ),
    );
    const notes = doc.blocks
      .filter((b) => b.region === "footnote")
      .map((b) => doc.headings[b.heading]!.title);
    expect(blocksOf(doc).slice(-2)).toEqual([
      "note footnote: A footnote of the second part.",
      "note footnote: An endnote of the first part.",
    ]);
    expect(notes).toEqual(["Second", "First"]);
  });
});

describe("ODT", () => {
  it("reads text:h numbers and levels, text:s spaces, caption styles by their parents, notes; skips indexes", async () => {
    const body = [
      `<text:table-of-content><text:index-body><text:p>1 Methods ..... 3</text:p></text:index-body></text:table-of-content>`,
      `<text:h text:outline-level="1"><text:number>1.</text:number>Methods</text:h>`,
      `<text:h text:outline-level="2"><text:number>1.1</text:number>Data</text:h>`,
      `<text:p>Two<text:s text:c="3"/>spaces<text:note text:note-class="endnote"><text:note-citation>i</text:note-citation><text:note-body><text:p>The endnote's words.</text:p></text:note-body></text:note> end.</text:p>`,
      `<text:p text:style-name="P1">Illustration 4: A harbour.</text:p>`,
    ].join("");
    const styles = `<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Illustration"/>`;
    const doc = await read("odt", odt(body, styles));
    expect(headings(doc)).toEqual(["1 1 Methods ^-1", "2 1.1 Data ^0"]);
    expect(blocksOf(doc)).toEqual([
      "heading body: Methods",
      "heading body: Data",
      "paragraph body: Two spaces end.",
      "caption caption: Illustration 4: A harbour.",
      "note footnote: The endnote's words.",
    ]);
    expect(doc.blocks.at(-1)!.heading).toBe(1);
  });
});

describe("ODT tables", () => {
  it("label an equation numbered in a table row", async () => {
    const formula = `<draw:frame><draw:object><math xmlns="http://www.w3.org/1998/Math/MathML"><mi>x</mi></math></draw:object></draw:frame>`;
    const body = `<table:table><table:table-row><table:table-cell><text:p>${formula}</text:p></table:table-cell><table:table-cell><text:p>(4)</text:p></table:table-cell></table:table-row></table:table>`;
    const doc = await read("odt", odt(body));
    expect(doc.labels.map((l) => `${l.kind} ${l.label} ${blocksOf(doc)[l.block]}`)).toEqual([
      "equation (4) table-cell table: x",
    ]);
  });
});

describe("EPUB", () => {
  it("EPUB 2: chapter titles from the NCX where a chapter has none, printed pages from its pageList", async () => {
    const ncx = `<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/"><navMap><navPoint id="n1"><navLabel><text>Chapter One</text></navLabel><content src="c1.xhtml"/></navPoint></navMap><pageList><pageTarget id="p1" type="normal" value="1"><navLabel><text>1</text></navLabel><content src="c1.xhtml"/></pageTarget><pageTarget id="p2" type="normal" value="2"><navLabel><text>2</text></navLabel><content src="c1.xhtml#page2"/></pageTarget></pageList></ncx>`;
    const book = epub({
      spine: ["c1"],
      spineToc: "ncx",
      documents: {
        c1: xhtml(
          `<p>It was a bright cold day in April, and the clocks were <span id="page2"/>striking thirteen at last.</p>`,
        ),
      },
      manifest: `<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>`,
      extra: [{ name: "OPS/toc.ncx", data: ncx }],
    });
    const doc = await read("epub", book);
    expect(headings(doc)).toEqual(["1 - Chapter One ^-1"]);
    const chars = [...doc.text];
    expect(
      doc.pageLabels?.map((p) => `${p.label}: ${chars.slice(p.startCp, p.startCp + 11).join("")}`),
    ).toEqual(["1: Chapter One", "2: striking th"]);
  });

  it("EPUB 3: a nav page-list, and a chapter in UTF-16 with its byte order mark", async () => {
    const nav = xhtml(
      `<nav epub:type="toc"><ol><li><a href="c1.xhtml">One</a></li></ol></nav><nav epub:type="page-list"><ol><li><a href="c1.xhtml#pg7">vii</a></li></ol></nav>`,
    );
    const chapter = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(
        xhtml(
          `<h1>The Harbour</h1><p>Boats came in <span epub:type="pagebreak" id="pg7"/>before the storm broke.</p>`,
        ).replace('encoding="UTF-8"', 'encoding="UTF-16"'),
        "utf16le",
      ),
    ]);
    const book = epub({
      spine: ["c1"],
      documents: { nav },
      manifest: `<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>`,
      extra: [{ name: "OPS/c1.xhtml", data: chapter }],
    });
    const doc = await read("epub", book);
    expect(headings(doc)).toEqual(["1 - The Harbour ^-1"]);
    expect(blocksOf(doc)).toContain("paragraph body: Boats came in before the storm broke.");
    const page = doc.pageLabels?.[0];
    expect(page?.label).toBe("vii");
    expect([...doc.text].slice(page!.startCp, page!.startCp + 6).join("")).toBe("before");
  });
});

describe("EPUB headings set as styled paragraphs", () => {
  it("take their rank from the table of contents, once, with the rest of the document read as before", async () => {
    const nav = xhtml(
      `<nav epub:type="toc"><ol><li><a href="c2.xhtml#c">Chapter Two</a><ol><li><a href="c2.xhtml#s">A  Section</a></li></ol></li></ol></nav>`,
    );
    const chapter = xhtml(
      `<p class="chap" id="c"><span>Chapter Two</span></p><p>Body text of the chapter &amp; more.</p><p class="sub" id="s">A Section</p><p>Text under the section.</p><aside epub:type="footnote"><p>The note's own words.</p></aside>`,
    );
    const book = epub({
      spine: ["c2"],
      documents: { nav, c2: chapter },
      manifest: `<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/>`,
    });
    const doc = await read("epub", book);
    expect(headings(doc)).toEqual(["1 - Chapter Two ^-1", "2 - A Section ^0"]);
    expect(blocksOf(doc)).toEqual([
      "heading body: Chapter Two",
      "paragraph body: Body text of the chapter & more.",
      "heading body: A Section",
      "paragraph body: Text under the section.",
      "note footnote: The note's own words.",
    ]);
  });
});

describe("container detection", () => {
  it("an EPUB whose mimetype is deflated, or missing, is still an EPUB; a deflated ODT mimetype is read", () => {
    const book = epub({ spine: ["c1"], documents: { c1: xhtml("<p>Words.</p>") } });
    const names = ["META-INF/container.xml", "OPS/book.opf", "OPS/c1.xhtml"];
    const parts = names.map((name) => ({ name, data: Zip.open(book, "book.epub").read(name) }));
    const deflated = zipFile([{ name: "mimetype", data: "application/epub+zip", deflate: true }, ...parts]);
    expect(detectKind(deflated, "a.epub").kind).toBe("epub");
    expect(detectKind(zipFile(parts), "b.epub").kind).toBe("epub");
    const text = zipFile([
      { name: "mimetype", data: "application/vnd.oasis.opendocument.text", deflate: true },
    ]);
    expect(detectKind(text, "c.odt").kind).toBe("odt");
  });
});

describe("JATS", () => {
  it("reads sec labels, footnotes under their reference's heading, table feet, citations and named entities", async () => {
    const article = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Publishing DTD v1.2 20190208//EN" "JATS-journalpublishing1.dtd">
<article xmlns:mml="http://www.w3.org/1998/Math/MathML" xml:lang="en"><front><article-meta><title-group><article-title>Tides &amp; Times</article-title></title-group>
<abstract><title>Summary</title><p>Short&mdash;and clear.</p></abstract></article-meta></front>
<body><sec><label>2.1</label><title>Data sources</title><p>We sampled<xref ref-type="fn" rid="fn1">a</xref> daily, with <inline-formula><mml:math><mml:mi>x</mml:mi></mml:math></inline-formula> fixed.</p>
<table-wrap id="t1"><label>Table 2</label><caption><title>Counts.</title></caption><table><tr><td>North pier</td></tr></table><table-wrap-foot><fn id="tf1"><p>Counted twice.</p></fn></table-wrap-foot></table-wrap></sec></body>
<back><ref-list><title>References</title><ref id="r1"><label>1</label><element-citation><person-group><name><surname>Smith</surname><given-names>J</given-names></name></person-group><article-title>Tides</article-title><year>2020</year></element-citation></ref></ref-list>
<fn-group><fn id="fn1"><label>a</label><p>Every morning at six.</p></fn></fn-group></back></article>`;
    const doc = await read("jats", article);
    expect(doc.title).toBe("Tides & Times");
    expect(doc.language).toBe("en");
    expect(headings(doc)).toEqual(["1 - Summary ^-1", "1 2.1 Data sources ^-1", "1 - References ^-1"]);
    expect(blocksOf(doc)).toEqual([
      "title body: Tides & Times",
      "heading body: Summary",
      "paragraph body: Short—and clear.",
      "heading body: Data sources",
      "paragraph body: We sampled daily, with x fixed.",
      "caption caption: Table 2 Counts.",
      "table-cell table: North pier",
      "heading body: References",
      "reference references: 1 Smith J Tides 2020",
      "note footnote: Every morning at six.",
      "note footnote: Counted twice.",
    ]);
    expect(doc.blocks.slice(-2).map((b) => doc.headings[b.heading]!.title)).toEqual([
      "Data sources",
      "Data sources",
    ]);
  });

  it("numbered subheadings below the table of contents' depth (LibreOffice's export) take their rank from their number", async () => {
    const nav = xhtml(`<nav epub:type="toc"><ol><li><a href="c1.xhtml">1 Condition</a></li></ol></nav>`);
    const chapter = xhtml(
      `<p class="para0"><span class="span1">1 Condition</span></p><p class="para0"><span class="span2">Body text of the chapter.</span></p>` +
        `<p class="para0"><span class="span3">1.1 Assumption process</span></p><p class="para0"><span class="span2">Text under one.</span></p>` +
        `<p class="para0"><span class="span3">1.1.1 Deeper still</span></p>` +
        // Not headings: another chapter's number, a sentence, words of the paragraph's own beside the span.
        `<p class="para0"><span class="span3">2.1 Elsewhere</span></p><p class="para0"><span class="span2">1.2 Ends with a stop.</span></p>` +
        `<p class="para0">Note <span class="span3">1.3 Inline</span></p>`,
    );
    const book = epub({
      spine: ["c1"],
      documents: { nav, c1: chapter },
      manifest: `<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>`,
    });
    const doc = await read("epub", book);
    expect(doc.headings.map((h) => `${h.level} ${h.number} ${h.title}`)).toEqual([
      "1 1 Condition",
      "2 1.1 Assumption process",
      "3 1.1.1 Deeper still",
    ]);
  });
});
