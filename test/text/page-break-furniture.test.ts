// Quotations across page breaks with the break's furniture between the halves, on documents
// scripts/corpus-gen/page-breaks.mjs generated (`--fixture`; truth from the generating run): fancyhdr
// heads and folios, footnotes at the foot, words hyphenated across the break, a Chromium print whose
// page ends with the glyphs of inline mathematics. Every run of words across a break PASSes named
// with endPage, FAILs crosses-page without it, and FAILs with a word near the break changed or dropped.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkQuotation } from "../../src/checks/quotation.js";
import type { LineInfo, PageText } from "../../src/document/model.js";
import { openDocument } from "../../src/document/open.js";
import { FoldedPages } from "../../src/text/folded-pages.js";
import { outOfOrderEnds } from "../../src/text/page-ends.js";
import { repoRoot } from "../helpers/fixture-files.js";

const dir = join(repoRoot, "test", "fixtures", "page-breaks");
const sums = new Map(
  readFileSync(join(dir, "SHA256SUMS"), "utf8")
    .trim()
    .split("\n")
    .map((l) => l.split(/\s+/).reverse() as [string, string]),
);
const golds = readdirSync(dir).filter((f) => f.endsWith(".gold.json"));

interface Gold {
  group: string;
  pdf: { file: string };
  cases: { id: string; category: string; evidence: { page: number; endPage?: number; text: string } }[];
}

describe("quotations across page breaks, the furniture passed over", () => {
  it("holds the generated documents it was given", () => {
    expect(golds.length).toBe(3);
    for (const [file, sum] of sums)
      expect(
        createHash("sha256")
          .update(readFileSync(join(dir, file)))
          .digest("hex"),
        file,
      ).toBe(sum);
  });

  for (const name of golds) {
    it(`every case of ${name.replace(".gold.json", "")}`, async () => {
      const gold = JSON.parse(readFileSync(join(dir, name), "utf8")) as Gold;
      const doc = await openDocument(join(dir, gold.pdf.file), { noCache: true });
      const pages = new FoldedPages(doc.pages);
      const wrong: string[] = [];
      for (const c of gold.cases) {
        const r = checkQuotation(pages, doc.pageCount, { id: c.id, ...c.evidence });
        const ok =
          c.category === "break-true"
            ? r.verdict === "PASS"
            : c.category === "break-hint"
              ? r.verdict === "FAIL" && r.reason === "crosses-page"
              : r.verdict === "FAIL";
        if (!ok) wrong.push(`${c.id} ${r.verdict}/${r.reason}: ${c.evidence.text}`);
      }
      expect(gold.cases.filter((c) => c.category === "break-true").length).toBeGreaterThan(40);
      expect(wrong).toEqual([]);
    }, 60_000);
  }
});

function line(text: string, at: number, left: number, right: number, bottom: number, height = 10): LineInfo {
  return {
    startUtf16: at,
    endUtf16: at + text.length,
    box: { left, right, bottom, top: bottom + height },
    fontSize: 10,
  };
}

/** A page of lines in the order given, each at its box. */
function pageOf(rows: [string, number, number, number][]): PageText {
  let text = "";
  const lines: LineInfo[] = [];
  for (const [t, left, right, bottom] of rows) {
    lines.push(line(t, text.length, left, right, bottom));
    text += `${t}\n`;
  }
  return { text, lines, lineEndHyphensUtf16: [] } as unknown as PageText;
}

describe("lines out of reading order at a page's ends", () => {
  const body: [string, number, number, number][] = [
    ["the first line of the body runs across the measure", 50, 500, 700],
    ["the second line of the body runs across the measure", 50, 500, 686],
    ["and the last line of the page ends the body here", 50, 500, 100],
  ];

  it("a fragment written after the page's last line but standing above it is out of order", () => {
    const page = pageOf([...body, ["x", 260, 268, 400], ["2", 268, 274, 404]]);
    expect(outOfOrderEnds(page, new Set()).map((l) => page.text.slice(l.startUtf16, l.endUtf16))).toEqual([
      "2",
      "x",
    ]);
  });

  it("a glyph set at the last line's end, or a short last line, is in order", () => {
    const atEnd = pageOf([...body, ["y", 504, 510, 100]]);
    expect(outOfOrderEnds(atEnd, new Set())).toEqual([]);
    const short = pageOf([...body, ["ended.", 50, 90, 86]]);
    expect(outOfOrderEnds(short, new Set())).toEqual([]);
  });

  it("a fragment inside the last line's stretch, drawn after it, is out of order", () => {
    const page = pageOf([...body, ["k", 300, 308, 101]]);
    expect(outOfOrderEnds(page, new Set())).toHaveLength(1);
  });

  it("a second column's last line, beside nothing lower in its own column, is in order", () => {
    const page = pageOf([
      ["left column line one of the body text", 50, 280, 700],
      ["left column line two of the body text", 50, 280, 100],
      ["right column line one of the body text", 320, 550, 700],
      ["right", 320, 350, 300],
    ]);
    expect(outOfOrderEnds(page, new Set())).toEqual([]);
  });
});
