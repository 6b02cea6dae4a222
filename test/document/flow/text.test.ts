import { describe, expect, it } from "vitest";
import { blocksOf, readFlow } from "../../helpers/flow-source.js";

describe("plain text reader", () => {
  it("paragraphs by blank lines; numbered headings; an RFC's page furniture left out", async () => {
    const rfc = [
      "Abstract",
      "",
      "   This document defines a thing",
      "   that does stuff.",
      "",
      "Table of Contents",
      "",
      "   1.  Introduction . . . . . . . . . . 2",
      "",
      "1.  Introduction",
      "",
      "   The words of the introduction.",
      "",
      "Fielding, et al.             Standards Track                   [Page 2]",
      "\fRFC 9110                     HTTP Semantics                    June 2022",
      "",
      "1.1.  Purpose",
      "",
      "   The purpose is stated here.",
      "",
      "Appendix A.  Collected ABNF",
      "",
      "   Grammar follows.",
    ].join("\r\n");
    const doc = await readFlow("text", rfc);
    expect(blocksOf(doc)).toEqual([
      "heading body: Abstract",
      "paragraph body: This document defines a thing that does stuff.",
      "heading body: Table of Contents",
      "paragraph body: 1. Introduction . . . . . . . . . . 2",
      "heading body: 1. Introduction",
      "paragraph body: The words of the introduction.",
      "heading body: 1.1. Purpose",
      "paragraph body: The purpose is stated here.",
      "heading body: Appendix A. Collected ABNF",
      "paragraph body: Grammar follows.",
    ]);
    expect(doc.headings.map((h) => [h.level, h.number ?? null, h.title])).toEqual([
      [1, null, "Abstract"],
      [1, null, "Table of Contents"],
      [1, "1", "Introduction"],
      [2, "1.1", "Purpose"],
      [1, "A", "Collected ABNF"],
    ]);
  });

  it("unindented prose: no line is a heading for want of indentation; UTF-16 with a BOM", async () => {
    const prose = "A short line\n\nAnother paragraph of words.\n\n3 apples were eaten.\n";
    expect(blocksOf(await readFlow("text", prose))).toEqual([
      "paragraph body: A short line",
      "paragraph body: Another paragraph of words.",
      "paragraph body: 3 apples were eaten.",
    ]);
    const be = Buffer.from("Wide words here.\n", "utf16le").swap16();
    const doc = await readFlow("text", new Uint8Array(Buffer.concat([Buffer.from([0xfe, 0xff]), be])));
    expect(doc.text).toBe("Wide words here.");
  });
});
