// The body flow: small-print runs out of the flow (footnotes at a column's foot, a caption at the
// head of the next column) are blanked; small print in the flow is kept.
import { describe, expect, it } from "vitest";
import type { PageText } from "../../src/document/model.js";
import { bodyFlowText } from "../../src/text/body-flow.js";
import { fold } from "../../src/text/fold.js";
import { FoldedPages } from "../../src/text/folded-pages.js";

type Row = [text: string, fontSize: number, left: number, bottom: number];

/** A page whose lines are the given rows, each 9pt tall and 240pt wide. */
function page(rows: Row[]): PageText {
  const box = { left: 0, bottom: 0, right: 612, top: 792 };
  const lines: PageText["lines"] = [];
  let start = 0;
  for (const [text, fontSize, left, bottom] of rows) {
    lines.push({
      startUtf16: start,
      endUtf16: start + text.length,
      box: { left, bottom, right: left + 240, top: bottom + 9 },
      fontSize,
    });
    start += text.length + 1;
  }
  return {
    page: 1,
    mediaBox: box,
    cropBox: box,
    rotation: 0,
    width: 612,
    height: 792,
    text: rows.map((r) => r[0]).join("\n"),
    lines,
    lineEndHyphensUtf16: [],
    graphics: [],
    graphicsDropped: 0,
    fonts: [],
    hasTextLayer: true,
  };
}

const found = (p: PageText, quote: string) =>
  new FoldedPages([p]).findOnPage(1, fold(quote, { trim: true }).text).length > 0;

describe("bodyFlowText", () => {
  const columnBreak = page([
    ["Body text of the first column runs down", 10, 54, 120],
    ["to the foot of the column and stops", 10, 54, 100],
    ["1A footnote set in small print.", 8, 54, 60],
    ["Figure 2: A small-print caption at the head.", 8, 316, 720],
    ["here, continuing at the head of the next one.", 10, 316, 690],
  ]);

  it("blanks small print that stands out of the flow, keeping every offset", () => {
    const body = bodyFlowText(columnBreak)!;
    expect(body).toHaveLength(columnBreak.text.length);
    expect(body).not.toContain("footnote");
    expect(body).not.toContain("caption");
    expect(body.replace(/\s+/g, " ")).toBe(
      "Body text of the first column runs down to the foot of the column and stops here, continuing at the head of the next one.",
    );
  });

  it("lets a body quotation cross the footnote and the caption, and still finds the small print itself", () => {
    expect(found(columnBreak, "the column and stops here, continuing at the head")).toBe(true);
    expect(found(columnBreak, "A small-print caption at the head")).toBe(true);
    // The page as a whole does not read that way.
    expect(columnBreak.text.replace(/\s+/g, " ")).not.toContain("stops here");
  });

  it("keeps small print that lies in the flow, so no word in the flow is skipped", () => {
    const inFlow = page([
      ["The estimate rose in every wave and the", 10, 54, 500],
      ["(small print between two body lines)", 8, 54, 488],
      ["reason is given below in full detail.", 10, 54, 476],
    ]);
    expect(bodyFlowText(inFlow)).toBeUndefined();
    expect(found(inFlow, "every wave and the reason is given below")).toBe(false);
  });

  it("leaves a page with one font size alone", () => {
    expect(
      bodyFlowText(
        page([
          ["One size only here", 10, 54, 500],
          ["and here too", 10, 54, 488],
        ]),
      ),
    ).toBeUndefined();
  });
});
