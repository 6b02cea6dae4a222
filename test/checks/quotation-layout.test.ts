// Quotations against page layouts: two columns with running heads, a footnote and captions; a
// landscape page; a cropped page; an empty page.
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/checks/result.js";
import { checkContext, checkRecord } from "../../src/checks/verify.js";
import { type OpenedDocument, openDocument } from "../../src/document/open.js";
import { fixture } from "../helpers/fixture-files.js";

let twocolumn: OpenedDocument;
let layout: OpenedDocument;
beforeAll(async () => {
  twocolumn = await openDocument(fixture("twocolumn"), { noCache: true });
  layout = await openDocument(fixture("layout"), { noCache: true });
});

function check(doc: OpenedDocument, page: number, text: string): CheckResult {
  return checkRecord(checkContext(doc), { kind: "quotation", page, text });
}

describe("two-column page", () => {
  it.each([
    [
      "across two line breaks in the left column",
      "the proposed estimator converges rapidly under mild assumptions on the sampling design of the survey",
    ],
    [
      "across a hyphenated line break in the left column",
      "Each panel records household income, the size of the household",
    ],
    [
      "across line breaks in the right column",
      "the weights can become extreme. Trimming the largest weights restores stability at the price of a small bias",
    ],
    [
      "just below the running head and the caption at the head of the column",
      "Survey designs differ in how they allocate effort across strata",
    ],
    ["just above the footnote", "the calibration absorbed without any change to the weighting"],
    [
      "just above the caption at the foot of the right column",
      "the code that produced every table in this paper is available from the authors on request",
    ],
    [
      "across the column break, past the footnote",
      "without any change to the weighting scheme. We found no evidence that the drift",
    ],
    [
      "a caption across its own line break",
      "Coverage of the bootstrap intervals across the three regional panels",
    ],
    ["the running head", "Proceedings of the Workshop on Survey Sampling"],
  ])("finds a quotation %s", (_label, text) => {
    const r = check(twocolumn, 1, text);
    expect([r.verdict, r.reason]).toEqual(["PASS", "found"]);
  });

  it("does not join the two columns line by line", () => {
    // Two lines at the same height, one in each column, read across the gutter: not text of the page.
    const r = check(twocolumn, 1, "how they allocate effort across rates fall below one half");
    expect(r.verdict).toBe("FAIL");
    expect(check(twocolumn, 1, "how they allocate effort across strata").verdict).toBe("PASS");
    expect(
      check(twocolumn, 1, "concern is nonresponse. When response rates fall below one half").verdict,
    ).toBe("PASS");
  });
});

describe("landscape, cropped and empty pages", () => {
  it("finds a quotation across the line breaks of a landscape (/Rotate 90) page", () => {
    const r = check(layout, 4, "their rows must still be read in the right order from top to bottom");
    expect([r.verdict, r.reason]).toEqual(["PASS", "found"]);
    expect(
      check(layout, 4, "Wide tables are often set on such pages, turned so that the reader rotates the sheet")
        .verdict,
    ).toBe("PASS");
  });

  it("finds a quotation on a page with an offset CropBox", () => {
    const r = check(layout, 3, "Cropped page. The quick brown fox jumps over the lazy dog");
    expect([r.verdict, r.reason]).toEqual(["PASS", "found"]);
  });

  it("judges a quotation cited on the empty page by where its words are: the page is blank, not an image", () => {
    const r = check(layout, 5, "The quick brown fox jumps over the lazy dog");
    expect([r.verdict, r.reason]).toEqual(["FAIL", "wrong-page"]);
    expect(r.evidence.layer).toBe("blank");
    expect(r.evidence.foundOnPages).toEqual([1, 2, 3, 4, 6]);
    expect(r.message).not.toMatch(/image/);
    const unseen = check(layout, 5, "words that are on no page at all");
    expect([unseen.verdict, unseen.reason]).toEqual(["FAIL", "absent"]);
  });

  it("gives a FLAG for a page record on the empty page: the page exists", () => {
    const r = checkRecord(checkContext(layout), { kind: "page", page: 5 });
    expect([r.verdict, r.reason]).toEqual(["FLAG", "no-quotation"]);
  });
});
