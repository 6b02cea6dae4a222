// Quotations across a page break (endPage, crosses-page) and quotations shortened with ellipses
// (found-elided), on generated pages: one column with a running head, a folio and a footnote between
// the two halves of a paragraph; two columns, from the foot of the right column to the top of the
// next page's left column.
import { beforeAll, describe, expect, it } from "vitest";
import { type EvidenceRecord, validateEvidence } from "../../src/checks/evidence-record.js";
import type { CheckResult } from "../../src/checks/result.js";
import { checkContext, checkRecord } from "../../src/checks/verify.js";
import { type OpenedDocument, openDocument } from "../../src/document/open.js";
import { CiteproofError } from "../../src/errors.js";
import { fixture } from "../helpers/fixture-files.js";

const docs = new Map<string, OpenedDocument>();
beforeAll(async () => {
  for (const name of ["page-break", "page-break-twocolumn", "labels-article"])
    docs.set(name, await openDocument(fixture(name), { noCache: true }));
});

function check(name: string, record: Record<string, unknown>): CheckResult {
  const [valid] = validateEvidence([{ kind: "quotation", ...record }]);
  return checkRecord(checkContext(docs.get(name)!), valid as Extract<EvidenceRecord, { kind: "quotation" }>);
}

// The foot of page 1's body, then (past the footnote, the folio and page 2's running head) the top of page 2's.
const ACROSS = "wave respondent of while for the the hours measured study every respondent measured";
const ACROSS_COLUMNS = "vey of panel wave. While the and every recorded regions prices and the wave wages";

describe("endPage: words running onto the next page", () => {
  it.each([
    ["page-break", ACROSS, "hours", "measured study"],
    ["page-break-twocolumn", ACROSS_COLUMNS, "recorded", "regions prices"],
  ])("%s: PASS found, one match on each page", (name, text, endOfFirst, startOfSecond) => {
    const r = check(name, { page: 1, endPage: 2, text });
    expect([r.verdict, r.reason]).toEqual(["PASS", "found"]);
    expect(r.message).toBe("found running from the foot of page 1 onto page 2");
    const matches = r.evidence.matches as {
      page: number;
      startUtf16: number;
      endUtf16: number;
      text: string;
    }[];
    expect(matches.map((m) => m.page)).toEqual([1, 2]);
    expect(matches[0].text.endsWith(endOfFirst)).toBe(true);
    expect(matches[1].text.startsWith(startOfSecond)).toBe(true);
    const pages = docs.get(name)!.pages;
    for (const m of matches) expect(pages[m.page - 1]!.text.slice(m.startUtf16, m.endUtf16)).toBe(m.text);
    expect(r.evidence.endPage).toBe(2);
  });

  it("the words of one page of the range are found there", () => {
    const r = check("page-break", {
      page: 1,
      endPage: 2,
      text: "measured study every respondent measured of every",
    });
    expect([r.verdict, r.reason, r.message]).toEqual(["PASS", "found", "found on page 2"]);
  });

  it("does not skip body text: a quotation that leaves out the words between is absent", () => {
    const r = check("page-break", {
      page: 1,
      endPage: 2,
      text: "wave respondent of while for the the hours study regions",
    });
    expect([r.verdict, r.reason]).toEqual(["FAIL", "absent"]);
  });

  it("an endPage past the end is no-such-page", () => {
    const r = check("page-break", { page: 2, endPage: 3, text: ACROSS });
    expect([r.verdict, r.reason]).toEqual(["FAIL", "no-such-page"]);
    expect(r.message).toMatch(/^page 3 does not exist/);
  });
});

describe("crosses-page: one page named, the words cross its break", () => {
  it.each([
    ["page-break", 1, ACROSS],
    ["page-break", 2, ACROSS],
    ["page-break-twocolumn", 1, ACROSS_COLUMNS],
  ])("%s, page %i", (name, page, text) => {
    const r = check(name, { page, text });
    expect([r.verdict, r.reason]).toEqual(["FAIL", "crosses-page"]);
    expect(r.message).toBe("the words run from page 1 onto page 2: name both (endPage 2)");
    expect((r.evidence.matches as { page: number }[]).map((m) => m.page)).toEqual([1, 2]);
  });
});

describe("ellipses", () => {
  it.each([
    ["three dots", "The treatment lowered ... by 14% in the second year"],
    ["an ellipsis character", "The treatment lowered \u2026 by 14% in the second year"],
    ["bracketed dots", "The treatment lowered [...] by 14% in the second year"],
    ["a bracketed ellipsis character", "The treatment lowered [ \u2026 ] by 14% in the second year"],
  ])("%s: PASS found-elided, the words left out printed", (_label, text) => {
    const r = check("labels-article", { page: 1, text });
    expect([r.verdict, r.reason]).toEqual(["PASS", "found-elided"]);
    expect(r.message).toBe('found on page 1 with words left out: "the error rate" (3 words)');
    expect(r.evidence.omitted).toEqual([{ text: "the error rate", words: 3, chars: 14, cut: false }]);
    expect((r.evidence.parts as { text: string }[]).map((p) => p.text)).toEqual([
      "The treatment lowered",
      "by 14% in the second year",
    ]);
  });

  it("several ellipses, each omission printed", () => {
    const r = check("labels-article", { page: 1, text: "treatment ... error ... 14% in the second year" });
    expect([r.verdict, r.reason]).toEqual(["PASS", "found-elided"]);
    expect(r.message).toBe(
      'found on page 1 with words left out: "lowered the" (2 words); "rate by" (2 words)',
    );
  });

  it("omitted words are cut to 200 characters with their count", () => {
    const r = check("page-break", { page: 1, text: "Income wages wave survey ... wave regions prices" });
    expect([r.verdict, r.reason]).toEqual(["PASS", "found-elided"]);
    const [omitted] = r.evidence.omitted as { text: string; words: number; chars: number; cut: boolean }[];
    expect(omitted.cut).toBe(true);
    expect(omitted.text.length).toBe(201);
    expect(r.message).toContain(`(${omitted.words} words, ${omitted.chars} characters)`);
  });

  it("parts out of order are absent", () => {
    const r = check("labels-article", {
      page: 1,
      text: "by 14% in the second year ... The treatment lowered",
    });
    expect([r.verdict, r.reason]).toEqual(["FAIL", "absent"]);
    expect(r.message).toContain("the parts are not in this order");
  });

  it("a missing part is absent and named", () => {
    const r = check("labels-article", {
      page: 1,
      text: "The treatment lowered ... by 41% in the second year",
    });
    expect([r.verdict, r.reason]).toEqual(["FAIL", "absent"]);
    expect(r.message).toContain('part 2 of 2 ("by 41% in the second year") is not there');
    expect(r.evidence.missingPart).toBe(1);
  });

  it("parts more than 1,500 characters apart are not one passage", () => {
    const r = check("page-break", {
      page: 1,
      text: "Income wages wave survey measured ... respondent of while for the the hours",
    });
    expect([r.verdict, r.reason]).toEqual(["FAIL", "absent"]);
    expect(r.message).toMatch(/the parts are \d,\d{3} characters apart: not one passage/);
    expect(r.evidence.widestGap as number).toBeGreaterThan(1500);
  });

  it("parts on another page are wrong-page", () => {
    const r = check("labels-article", { page: 2, text: "The treatment lowered ... in the second year" });
    expect([r.verdict, r.reason, r.evidence.foundOnPages]).toEqual(["FAIL", "wrong-page", [1]]);
  });

  it("parts across a page break with endPage", () => {
    const r = check("page-break", {
      page: 1,
      endPage: 2,
      text: "respondent of while ... every respondent measured of every",
    });
    expect([r.verdict, r.reason]).toEqual(["PASS", "found-elided"]);
    expect((r.evidence.parts as { page: number }[]).map((p) => p.page)).toEqual([1, 2]);
    expect(r.message).toContain('words left out: "for the the hours measured study" (6 words)');
  });

  it("the four-word floor counts every part", () => {
    const r = check("labels-article", { page: 1, text: "treatment ... error rate" });
    expect([r.verdict, r.reason, r.evidence.words]).toEqual(["FLAG", "no-quotation", 3]);
  });

  it("an ellipsis at an end of a draft's quotation leaves nothing out", () => {
    const r = checkRecord(checkContext(docs.get("labels-article")!), {
      kind: "quotation",
      page: 1,
      text: "\u2026lowered the error rate by 14%",
    });
    expect([r.verdict, r.reason]).toEqual(["PASS", "found"]);
  });
});

describe("bad input", () => {
  it.each([
    [{ page: 1, endPage: 1.5, text: ACROSS }, '"evidence[0].endPage" must be an integer'],
    [{ page: 2, endPage: 1, text: ACROSS }, '"evidence[0].endPage" must be after "page"'],
    [{ page: 2, endPage: 2, text: ACROSS }, '"evidence[0].endPage" must be after "page"'],
    [{ page: 1, endPage: 3, text: ACROSS }, '"evidence[0].endPage" may be at most one past "page"'],
    [{ endPage: 3, text: ACROSS }, '"evidence[0].endPage" needs a "page"'],
    [{ page: 1, text: "..." }, '"evidence[0].text" has an ellipsis with no words on one side'],
    [{ page: 1, text: "the words ... [...] more words" }, '"evidence[0].text" has an ellipsis with no words'],
    [{ page: 1, text: "\u2026 the words at the start" }, '"evidence[0].text" has an ellipsis with no words'],
  ])("%j", (record, message) => {
    let error: unknown;
    try {
      validateEvidence([{ kind: "quotation", ...record }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CiteproofError);
    expect((error as CiteproofError).code).toBe("EVIDENCE_INVALID");
    expect((error as CiteproofError).message).toContain(message);
    expect((error as CiteproofError).message).not.toContain("\n");
  });
});
