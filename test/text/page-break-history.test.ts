// A passage across a page break is found the same whatever was checked before in the process: a page's
// body is made with the body font size of the pages held (its furniture depends on it), so a body made
// for one set of pages is never handed to a check holding another.
import { describe, expect, it } from "vitest";
import type { PageText } from "../../src/document/model.js";
import { FoldedPages } from "../../src/text/folded-pages.js";
import { findAcrossBreak } from "../../src/text/page-break.js";
import { textPage } from "../helpers/page-text.js";

/** Lines from the top down, 12 points apart from `top`, each set in `size`. */
function page(n: number, lines: { text: string; size: number; bottom: number }[]): PageText {
  const p = textPage(n, lines.map((l) => l.text).join("\n"), {
    lineBox: (i) => ({ left: 72, bottom: lines[i].bottom, right: 540, top: lines[i].bottom + lines[i].size }),
  });
  p.lines.forEach((line, i) => {
    line.fontSize = lines[i].size;
  });
  return p;
}

const body = (texts: string[], top: number) =>
  texts.map((text, i) => ({ text, size: 10, bottom: top - 12 * i }));

// Page 1: a paragraph ending in words that run on, a footnote at the foot (smaller type).
const first = page(1, [
  ...body(["The opening lines of the paragraph", "go on for a while and then", "the words that run on"], 700),
  { text: "1 A note set at the foot of the page.", size: 8, bottom: 90 },
]);
// Page 2: the paragraph goes on.
const second = page(2, body(["across the break to here", "and the paragraph ends."], 700));
// Page 3: a long table in small type, more characters than the body's.
const third = page(
  3,
  Array.from({ length: 40 }, (_, i) => ({ text: `row ${i} `.repeat(12), size: 6, bottom: 740 - 16 * i })),
);

const NEEDLE = "the words that run on across the break";

describe("a passage across a page break, whatever was checked before", () => {
  it("finds it with the pages of its break held, after a check that held a page of small type too", () => {
    const withTable = new FoldedPages([first, second, third]);
    // With the table's size for the body, page 1's footnote is not told apart: it stands in the way.
    expect(findAcrossBreak(withTable, 1, NEEDLE)).toBeUndefined();
    const found = findAcrossBreak(new FoldedPages([first, second, undefined]), 1, NEEDLE);
    expect(found?.parts.map((p) => p.page)).toEqual([1, 2]);
  });
});
