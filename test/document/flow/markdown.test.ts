import { describe, expect, it } from "vitest";
import { blocksOf, codeOf, readFlow } from "../../helpers/flow-source.js";
import { hasUnboundedRepeat, regexLiterals } from "../../helpers/regex-literals.js";

const MARKDOWN_FILES = ["src/document/flow/markdown.ts", "src/document/flow/markdown-inline.ts"];

describe("Markdown reader", () => {
  it("ATX and Setext headings, paragraphs, lists, quotes; code kept out of prose", async () => {
    const doc = await readFlow(
      "markdown",
      [
        "---",
        "title: The Notes",
        "lang: en-GB",
        "---",
        "Intro Title",
        "===========",
        "",
        "A *first* paragraph with **strong** words,",
        "a [link](https://example.org/x_(y)) and `co*de`.",
        "",
        "## 2 Methods ##",
        "",
        "- one item",
        "  continues here",
        "- two",
        "",
        "1. numbered",
        "",
        "> quoted words",
        "> go on",
        "",
        "```js",
        "const hidden = 1;",
        "```",
        "",
        "    indented code",
        "",
        "Second level",
        "------------",
        "",
        "snake_case stays, 1990--2000 and a---dash.\\*",
        "",
        "***",
      ].join("\n"),
    );
    expect(blocksOf(doc)).toEqual([
      "heading body: Intro Title",
      "paragraph body: A first paragraph with strong words, a link and co*de.",
      "heading body: 2 Methods",
      "list-item body: one item continues here",
      "list-item body: two",
      "list-item body: numbered",
      "block-quote body: quoted words go on",
      "heading body: Second level",
      "paragraph body: snake_case stays, 1990\u20132000 and a\u2014dash.*",
    ]);
    expect([doc.title, doc.language]).toEqual(["The Notes", "en-GB"]);
    expect(doc.headings.map((h) => [h.level, h.number ?? null, h.title, h.parent])).toEqual([
      [1, null, "Intro Title", -1],
      [2, "2", "Methods", 0],
      [2, null, "Second level", 0],
    ]);
  });

  it("footnotes apart, pipe tables, captions and labelled equations", async () => {
    const doc = await readFlow(
      "markdown",
      [
        "Words with a note[^n1] in them.",
        "",
        "| Name | Value |",
        "|------|------:|",
        "| alpha | 1 |",
        "",
        "Table: Table 3. The values.",
        "",
        "![Figure 4: A plot of things.](plot.png){#fig:plot}",
        "",
        "$$ E = mc^2 \\tag{2.1} $$",
        "",
        "[^n1]: The note's words.",
        "    More of the note.",
      ].join("\r\n"),
    );
    expect(blocksOf(doc)).toEqual([
      "paragraph body: Words with a note in them.",
      "table-cell table: Name",
      "table-cell table: Value",
      "table-cell table: alpha",
      "table-cell table: 1",
      "caption caption: Table 3. The values.",
      "caption caption: Figure 4: A plot of things.",
      "equation body: E = mc^2",
      "note footnote: The note's words. More of the note.",
    ]);
    expect(doc.labels.map((l) => [l.kind, l.label])).toEqual([
      ["table", "Table 3"],
      ["figure", "Figure 4"],
      ["equation", "(2.1)"],
    ]);
  });

  it("invalid UTF-8 is CONTENT_INVALID", async () => {
    const bad = new Uint8Array([0x23, 0x20, 0x41, 0xff, 0x0a]);
    expect(await codeOf(readFlow("markdown", bad))).toBe("CONTENT_INVALID");
  });

  it("every pattern the reader scans a line with does bounded work at each place it starts", () => {
    // Work linear in the input without a clock: a pattern tried at every position of a line costs
    // at most its longest match there, so each unanchored pattern's repetitions must be bounded.
    // A pattern anchored at `^` starts once per line. A lone repeated atom (`\\s+`) never backtracks.
    const unbounded = MARKDOWN_FILES.flatMap((file) =>
      regexLiterals(file)
        .filter((rx) => !rx.source.startsWith("^") && !/^\\?.[*+]$/u.test(rx.source))
        .filter((rx) => hasUnboundedRepeat(rx.source))
        .map((rx) => `${file}: /${rx.source}/`),
    );
    expect(unbounded).toEqual([]);
    expect(hasUnboundedRepeat("\\[\\^([^\\]\\s]+)\\]")).toBe(true);
    expect(hasUnboundedRepeat("a[+*]{2}b{1,3}\\*")).toBe(false);
  });

  it("unclosed brackets, emphasis, code, note and tag marks 100,000 deep are read", async () => {
    const words = "The surveyors counted forty boats.";
    const runs = [
      `${"[".repeat(100_000)}${words}${"](x)".repeat(100_000)}`,
      `${"[".repeat(200_000)}${words}`,
      `${"![".repeat(100_000)}${words}`,
      `${"[^".repeat(100_000)}${words}`,
      "*a ".repeat(100_000),
      "**a ".repeat(100_000),
      "_a ".repeat(100_000),
      "~~a ".repeat(100_000),
      `\`\` ${"`a ".repeat(100_000)}`,
    ];
    for (const run of runs) {
      const doc = await readFlow("markdown", `# 1 Intro\n\n${run}\n`);
      expect(doc.text.length).toBeGreaterThan(0);
    }
    const tags = await readFlow("markdown", `$$\n${"\\tag{".repeat(100_000)}x\n$$\n`);
    expect(tags.text.length).toBeGreaterThan(0);
  }, 120_000);

  it("renders email autolinks and reference links as their words; definitions are not printed", async () => {
    const doc = await readFlow(
      "markdown",
      [
        "# 1 Credits",
        "",
        "Written by Kirill Simonov <xi@resolvent.net>, faster than [zlib] or [LZ 4][], unlike [not a link].",
        "",
        "[zlib]: https://www.zlib.net/",
        '[lz  4]: https://lz4.org "LZ4"',
      ].join("\n"),
    );
    expect(doc.text).toBe(
      "1 Credits\n\nWritten by Kirill Simonov xi@resolvent.net, faster than zlib or LZ 4, unlike [not a link].",
    );
  });
});
