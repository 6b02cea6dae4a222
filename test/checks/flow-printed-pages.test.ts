// A source that prints page labels (an EPUB page-list) is cited by printed page; the builder stands in
// for the EPUB reader, which fills the same model.
import { describe, expect, it } from "vitest";
import { verifyFlow } from "../../src/checks/flow-verify.js";
import { FlowBuilder } from "../../src/document/flow/builder.js";

function book() {
  const b = new FlowBuilder("epub", "a".repeat(64));
  b.heading(1, "Chapter 1 The Voyage");
  b.pageLabel("11");
  b.block("paragraph", "The ship left the harbour before the sun rose over the hills.");
  b.pageLabel("12");
  b.block("paragraph", "By noon the coast had sunk below the line of the sea behind them.");
  return b.finish();
}

describe("printed pages of a flow source", () => {
  it("PASS on the printed page; wrong-page names where; no-such-page; a bare page FLAGs", () => {
    const report = verifyFlow(
      book(),
      [
        { kind: "quotation", page: 12, text: "the coast had sunk below the line" },
        { kind: "quotation", page: 11, text: "the coast had sunk below the line" },
        { kind: "quotation", page: 40, text: "the coast had sunk below the line" },
        { kind: "page", page: 11 },
      ],
      "book.epub",
    );
    expect(report.results.map((r) => `${r.verdict} ${r.reason}`)).toEqual([
      "PASS found",
      "FAIL wrong-page",
      "FAIL no-such-page",
      "FLAG no-quotation",
    ]);
    expect(report.results[1].message).toBe("not found in printed page 11; the words are on printed page 12");
    expect(report.document.printedPages).toBe(2);
  });

  it("endPage, or page and section together, are refused", () => {
    expect(() =>
      verifyFlow(
        book(),
        [{ kind: "quotation", page: 11, endPage: 12, text: "the ship left the harbour" }],
        "b",
      ),
    ).toThrow(/endPage/);
    expect(() =>
      verifyFlow(
        book(),
        [{ kind: "quotation", page: 11, section: "1", text: "the ship left the harbour" }],
        "b",
      ),
    ).toThrow(/not both/);
  });
});
