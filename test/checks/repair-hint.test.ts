// Repair hints on FAIL, on generated pages: the closest passage and what differs word by word (a
// digit, a word, a dropped "not"), the symbol of a form-differs, and the printed label a writer
// cited instead of the file's page. The verdicts stay what they were.
import { beforeAll, describe, expect, it } from "vitest";
import type { EvidenceRecord } from "../../src/checks/evidence-record.js";
import type { CheckResult } from "../../src/checks/result.js";
import { checkContext, checkRecord } from "../../src/checks/verify.js";
import { type OpenedDocument, openDocument } from "../../src/document/open.js";
import { fixture } from "../helpers/fixture-files.js";

const docs = new Map<string, OpenedDocument>();
beforeAll(async () => {
  for (const name of ["labels-article", "labels-book-plain", "paper"])
    docs.set(name, await openDocument(fixture(name), { noCache: true }));
});

function check(name: string, record: EvidenceRecord): CheckResult {
  return checkRecord(checkContext(docs.get(name)!), record as Extract<EvidenceRecord, { kind: "quotation" }>);
}

const quote = (page: number, text: string): EvidenceRecord => ({ kind: "quotation", page, text });

interface Hint {
  text: string;
  page: number;
  printedPage: string | null;
  passage?: { text: string; similarity: number };
  differences?: { page: string; quotation: string }[];
}

describe("absent: the closest passage and what differs", () => {
  it.each([
    [
      "one digit",
      quote(1, "The treatment lowered the error rate by 41% in the second year"),
      [{ page: "14%", quotation: "41%" }],
      "page has `14%` where the quotation has `41%`",
    ],
    [
      "a dropped not",
      quote(2, "the two regions was significant at the usual level of five percent"),
      [{ page: "not", quotation: "" }],
      "the quotation drops `not`",
    ],
    [
      "a changed word",
      quote(3, "A significant share of households reported the new prices within a week"),
      [{ page: "greater", quotation: "significant" }],
      "page has `greater` where the quotation has `significant`",
    ],
    [
      "an added word",
      quote(3, "households reported the new retail prices within a week"),
      [{ page: "", quotation: "retail" }],
      "the quotation adds `retail`",
    ],
  ])("%s", (_label, record, differences, words) => {
    const r = check("labels-article", record);
    expect([r.verdict, r.reason]).toEqual(["FAIL", "absent"]);
    const hint = r.evidence.hint as Hint;
    expect(hint.differences).toEqual(differences);
    expect(hint.page).toBe((record as { page: number }).page);
    expect(r.message).toContain(words);
    expect(r.evidence.printedPage).toBe(String(216 + hint.page));
  });

  it("picks the passage matching the whole quotation, not the first line sharing a word", () => {
    const r = check("labels-article", quote(2, "between the two regions was not large at the usual level"));
    const hint = r.evidence.hint as Hint;
    expect(hint.passage?.text).toBe("between the two regions was not significant at the usual level");
    expect(hint.differences).toEqual([{ page: "significant", quotation: "large" }]);
  });

  it("looks on the page printed with the number cited, when that is closer", () => {
    // Page 3 of the file is the preface; the page printed 3 is page 7.
    const r = check("labels-book-plain", quote(3, "This is the main text of part 3 which a reader may cite"));
    expect([r.verdict, r.reason]).toEqual(["FAIL", "absent"]);
    const hint = r.evidence.hint as Hint;
    expect([hint.page, hint.printedPage]).toEqual([7, "3"]);
    expect(r.message).toContain("the page printed 3 is page 7 of the file; closest passage there");
    expect(r.message).toContain("page has `writer` where the quotation has `reader`");
  });
});

describe("the printed label a writer cited", () => {
  it("no-such-page names the page printed with that number", () => {
    const r = check("labels-article", quote(219, "A greater share of households reported"));
    expect([r.verdict, r.reason]).toEqual(["FAIL", "no-such-page"]);
    expect(r.message).toBe(
      "page 219 does not exist (the file has 14 pages); the page printed 219 is page 3 of the file",
    );
    expect(r.evidence.pagesPrintedAs).toEqual([3]);
  });

  it("a page record too", () => {
    const r = checkRecord(checkContext(docs.get("labels-article")!), { kind: "page", page: 230 });
    expect(r.message).toContain("the page printed 230 is page 14 of the file");
  });

  it("wrong-page names the file's page and its printed label", () => {
    const r = check("labels-book-plain", quote(3, "This is the main text of part 3 which a writer may cite"));
    expect([r.verdict, r.reason]).toEqual(["FAIL", "wrong-page"]);
    expect(r.message).toBe("not found on page 3; the words are on page 7 of the file, printed 3");
    expect(r.evidence.hint).toMatchObject({ page: 7, printedPage: "3" });
    expect(r.evidence.printedPage).toBe("iii");
  });

  it("every page-bearing result names printedPage", () => {
    const found = check("labels-article", quote(1, "lowered the error rate by 14%"));
    expect([found.verdict, found.evidence.printedPage, found.evidence.printedPageSource]).toEqual([
      "PASS",
      "217",
      "running-folio",
    ]);
    const short = check("labels-article", quote(2, "two regions"));
    expect([short.verdict, short.evidence.printedPage]).toEqual(["FLAG", "218"]);
  });
});

describe("form-differs names the symbol", () => {
  it("the quotation drops the dash of 5-8%", () => {
    const r = check("paper", quote(4, "changed the weights by between 58% of their design values"));
    expect([r.verdict, r.reason]).toEqual(["FAIL", "form-differs"]);
    const hint = r.evidence.hint as Hint;
    expect(hint.differences).toEqual([{ page: "\u2013", quotation: "" }]);
    expect(r.message).toContain("the quotation drops `\u2013`");
  });
});
