import { describe, expect, it } from "vitest";
import { blocksOf, codeOf, readFlow } from "../../helpers/flow-source.js";

describe("HTML reader", () => {
  it("reads main's headings, paragraphs, lists, quotes, captions, cells and notes; drops the rest", async () => {
    const doc = await readFlow(
      "html",
      `<!doctype html><html lang="en"><head><title>The page</title><script>var x = "script words";</script>
      <style>p { color: red }</style></head><body><nav>Home | About</nav><header>Site banner</header>
      <main><h1>1 Intro</h1><p>The <em>quick</em> brown<a href="#fn1" role="doc-noteref"><sup>1</sup></a> fox.</p>
      <h2>1.1 Data</h2><ul><li>one item</li><li><p>two</p></li></ul><blockquote><p>quoted words</p></blockquote>
      <figure><img src="c.png" alt="alt words"><figcaption>Figure 2: A cat.</figcaption></figure>
      <table><caption>Table 1. Things</caption><tr><th>a</th><td>b<sup><a href="#r3">[3]</a></sup></td></tr></table>
      <template><p>template words</p></template><div hidden>hidden words</div><p style="display: none">gone</p>
      <button>Click</button><section role="doc-endnotes"><ol><li id="fn1"><p>A note.<a href="#fnref1" role="doc-backlink">↩</a></p></li></ol></section>
      </main><footer>Site footer</footer></body></html>`,
    );
    expect(blocksOf(doc)).toEqual([
      "heading body: 1 Intro",
      "paragraph body: The quick brown fox.",
      "heading body: 1.1 Data",
      "list-item body: one item",
      "list-item body: two",
      "block-quote body: quoted words",
      "caption caption: Figure 2: A cat.",
      "caption caption: Table 1. Things",
      "table-cell table: a",
      "table-cell table: b",
      "note footnote: A note.",
    ]);
    expect(doc.labels).toEqual([
      { kind: "figure", label: "Figure 2", block: 6 },
      { kind: "table", label: "Table 1", block: 7 },
    ]);
    expect([doc.title, doc.language, doc.kind]).toEqual(["The page", "en", "html"]);
    expect(doc.headings.map((h) => [h.level, h.number, h.title, h.parent])).toEqual([
      [1, "1", "Intro", -1],
      [2, "1.1", "Data", 0],
    ]);
  });

  it("an article is preferred when there is no main; without either, the whole body", async () => {
    const article = await readFlow(
      "html",
      "<body><div>Menu words</div><article><p>Article words here.</p></article></body>",
    );
    expect(blocksOf(article)).toEqual(["paragraph body: Article words here."]);
    const plain = await readFlow("html", "<body><div>First</div><p>Second</p>Loose text</body>");
    expect(blocksOf(plain)).toEqual([
      "paragraph body: First",
      "paragraph body: Second",
      "paragraph body: Loose text",
    ]);
  });

  it("entities, non-breaking spaces, soft hyphens and direction marks", async () => {
    const doc = await readFlow(
      "html",
      "<p>A&nbsp;b &amp; c\u00a0d hy&shy;phen \u200fمرحبا\u200e done&#x2019;s</p>",
    );
    expect(doc.text).toBe("A b & c d hy\u00adphen مرحبا done\u2019s");
  });

  it("a declared legacy charset is honoured; UTF-16 with a byte-order mark is read", async () => {
    const latin = Buffer.concat([
      Buffer.from('<meta charset="windows-1252"><p>caf'),
      Buffer.from([0xe9, 0x93]),
      Buffer.from("x</p>"),
    ]);
    expect((await readFlow("html", new Uint8Array(latin))).text).toBe("caf\u00e9\u201cx");
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("<p>wide text</p>", "utf16le")]);
    expect((await readFlow("html", new Uint8Array(utf16))).text).toBe("wide text");
  });

  it("invalid UTF-8 is CONTENT_INVALID naming the byte", async () => {
    const bad = Buffer.concat([Buffer.from("<p>ok "), Buffer.from([0xc3, 0x28]), Buffer.from("</p>")]);
    await expect(readFlow("html", new Uint8Array(bad), "bad.html")).rejects.toMatchObject({
      code: "CONTENT_INVALID",
      message: "bad.html is not valid UTF-8 (at byte 6)",
    });
  });

  it("elements nested 100,000 deep: a coded error at once, no crash", async () => {
    const started = Date.now();
    expect(await codeOf(readFlow("html", `${"<div>".repeat(100_000)}deep`))).toBe("CONTENT_NOT_SUPPORTED");
    expect(await codeOf(readFlow("html", `${"<b><i>".repeat(50_000)}deep`))).toBe("CONTENT_NOT_SUPPORTED");
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await readFlow("html", `${"<div>".repeat(2000)}deep`)).text).toBe("deep");
  });

  it("XHTML: self-closing elements close", async () => {
    const doc = await readFlow(
      "xhtml",
      '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>One<br/>two</p><div/><p>Three</p></body></html>',
    );
    expect(blocksOf(doc)).toEqual(["paragraph body: One two", "paragraph body: Three"]);
  });

  it("reads DocBook's numbered headings of class title as sections; pandoc's title block stays the title", async () => {
    const docbook = await readFlow(
      "html",
      `<html><body><div class="titlepage"><h1 class="title"><a name="core"></a>2. Using the core</h1></div>
      <p>Words under the chapter stand here.</p><div class="titlepage"><h2 class="title">2.1. What it does</h2></div>
      <p>Words under the section stand here.</p></body></html>`,
    );
    expect(docbook.headings.map((h) => `${h.level} ${h.number} ${h.title}`)).toEqual([
      "1 2 Using the core",
      "2 2.1 What it does",
    ]);
    const pandoc = await readFlow(
      "html",
      `<html><body><header id="title-block-header"><h1 class="title">Deltas under a sea</h1></header>
      <h1>1 Introduction</h1><p>Words.</p></body></html>`,
    );
    expect([pandoc.title, pandoc.headings.map((h) => h.title)]).toEqual([
      "Deltas under a sea",
      ["Introduction"],
    ]);
  });
});
