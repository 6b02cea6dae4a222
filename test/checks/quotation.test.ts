// The quotation and page checks through the library, over the committed fixtures: every verdict
// and reason, the folding rules on real extracted text, and the 58% vs 5-8% trap.
import { beforeAll, describe, expect, it } from "vitest";
import type { EvidenceRecord } from "../../src/checks/evidence-record.js";
import type { CheckResult } from "../../src/checks/result.js";
import { REASONS, VERDICTS } from "../../src/checks/verdicts.js";
import { checkContext, checkRecord, verifyEvidence } from "../../src/checks/verify.js";
import { type OpenedDocument, openDocument } from "../../src/document/open.js";
import { fixture } from "../helpers/fixture-files.js";

const docs = new Map<string, OpenedDocument>();
beforeAll(async () => {
  for (const name of ["typography", "paper"])
    docs.set(name, await openDocument(fixture(name), { noCache: true }));
});

function check(name: string, record: EvidenceRecord): CheckResult {
  const result = checkRecord(
    checkContext(docs.get(name)!),
    record as Extract<EvidenceRecord, { kind: "quotation" | "page" }>,
  );
  expect(VERDICTS).toContain(result.verdict);
  expect(REASONS).toContain(result.reason);
  expect(result.message).not.toContain("\n");
  return result;
}

const quote = (page: number | undefined, text: string): EvidenceRecord => ({ kind: "quotation", page, text });

describe("PASS found: the folding rules on extracted text", () => {
  it.each([
    [
      "ligatures, quoted as plain letters",
      "the first office staff flagged an efficient affine waffle shuffle",
    ],
    [
      "ligatures, quoted as ligature characters",
      "the \ufb01rst o\ufb03ce sta\ufb00 \ufb02agged an e\ufb03cient",
    ],
    ["case and spacing", "THE   First Office\tstaff FLAGGED"],
    ["curly double quotes, quoted straight", 'reviewers called it "a remarkably robust design" and the'],
    [
      "curly single quotes and apostrophes, quoted straight",
      "the 'minor' issues were fixed; the authors' own view",
    ],
    ["an en dash quoted as a hyphen", "see pages 10-20 for details"],
    ["an em dash quoted as a hyphen", "for details-the effect was small-and the offset"],
    ["a minus sign quoted as a hyphen", "the offset was -3.5 units in every run"],
    ["a minus sign quoted as a minus sign", "the offset was \u22123.5 units"],
    ["the dash of 5-8% quoted as a hyphen", "an effect of 5-8% was seen"],
    ["a line break in the quotation", "the offset was -3.5 units in every\nrun"],
    ["a hyphenated word quoted joined", "The measured overall performance of the system improved steadily."],
    ["a hyphenated word quoted with its hyphen", "The measured overall perfor-mance of the system"],
  ])("%s", (_label, text) => {
    const r = check("typography", quote(1, text));
    expect([r.verdict, r.reason]).toEqual(["PASS", "found"]);
    expect(r.message).toBe("found on page 1");
    const matches = r.evidence.matches as { startUtf16: number; endUtf16: number; text: string }[];
    expect(matches.length).toBeGreaterThan(0);
    const page = docs.get("typography")!.pages[0]!.text;
    for (const m of matches) expect(page.slice(m.startUtf16, m.endUtf16)).toBe(m.text);
  });

  it("returns the page's own words for the match", () => {
    const r = check("typography", quote(1, "an effect of 5-8% was seen"));
    expect((r.evidence.matches as { text: string }[])[0].text).toBe("an effect of 5\u20138% was seen");
  });
});

describe("FAIL: any other difference", () => {
  it("form-differs: a quoted 58% never matches the page's 5-8%", () => {
    const r = check("typography", quote(1, "an effect of 58% was seen in 158 trials"));
    expect([r.verdict, r.reason]).toEqual(["FAIL", "form-differs"]);
    expect(r.evidence.pageWords).toBe("an effect of 5\u20138% was seen in 158 trials");
    expect(r.message).toContain("5\u20138%");
  });

  it("form-differs: a dropped apostrophe or dash is a symbol that differs", () => {
    expect(check("typography", quote(1, "the authors own view differed")).reason).toBe("form-differs");
    expect(check("typography", quote(1, "see pages 1020 for details")).reason).toBe("form-differs");
  });

  it("absent: one digit, one word, a dropped word, a number cut out of a longer one", () => {
    for (const text of [
      "an effect of 5-9% was seen",
      "the first office staff flagged an inefficient affine waffle",
      "the first staff flagged an efficient",
      "58 trials of the pilot",
      "an effect of 5-8% was seen in 15 trials",
    ]) {
      const r = check("typography", quote(1, text));
      expect([text, r.verdict, r.reason]).toEqual([text, "FAIL", "absent"]);
    }
  });

  it("absent: shows the closest passage on the page and the word that differs", () => {
    const r = check(
      "paper",
      quote(5, "reduced the mean squared error by roughly a half relative to the unweighted mean"),
    );
    expect([r.verdict, r.reason]).toEqual(["FAIL", "absent"]);
    const hint = r.evidence.hint as {
      page: number;
      passage: { text: string; similarity: number };
      differences: { page: string; quotation: string }[];
    };
    expect(hint.page).toBe(5);
    expect(hint.passage.text).toBe(
      "reduced the mean squared error by roughly a third relative to the unweighted mean.",
    );
    expect(hint.passage.similarity).toBeGreaterThan(0.8);
    expect(hint.differences).toEqual([{ page: "third", quotation: "half" }]);
    expect(r.message).toContain("closest passage");
    expect(r.message).toContain("page has `third` where the quotation has `half`");
  });

  it("wrong-page: names the page that holds the words", () => {
    const r = check(
      "paper",
      quote(3, "Standard errors come from a bootstrap that resamples primary sampling units"),
    );
    expect([r.verdict, r.reason]).toEqual(["FAIL", "wrong-page"]);
    expect(r.evidence.foundOnPages).toEqual([4]);
    // Physical page 4 prints "2": the message says so, and the hint names the page.
    expect(r.message).toBe("not found on page 3; the words are on page 4 of the file, printed 2");
    expect(r.evidence.foundOnPrintedPages).toEqual(["2"]);
    expect(r.evidence.hint).toMatchObject({ page: 4, printedPage: "2" });
  });

  it("wrong-page: a printed page number is not the physical page", () => {
    // Physical page 3 prints "1" (two roman-numbered pages come first).
    const text = "the final weights are calibrated so that the sample reproduces known totals";
    expect(check("paper", quote(3, text)).verdict).toBe("PASS");
    const r = check("paper", quote(1, text));
    expect([r.verdict, r.reason, r.evidence.foundOnPages]).toEqual(["FAIL", "wrong-page", [3]]);
  });

  it("no-such-page: checked before anything else, even a short quotation", () => {
    for (const record of [
      quote(6, "reduced the mean squared error"),
      quote(99, "ab"),
      { kind: "page", page: 6 },
    ] as const) {
      const r = check("paper", record as EvidenceRecord);
      expect([r.verdict, r.reason]).toEqual(["FAIL", "no-such-page"]);
      expect(r.message).toMatch(/^page \d+ does not exist \(the file has 5 pages\)$/);
    }
  });
});

describe("FLAG and UNANCHORED", () => {
  it("FLAG no-quotation: fewer than four words leaves the wording unchecked, even when absent", () => {
    for (const text of ["roughly a third", "words not there", "\u201cab\u201d \u2014 cd"]) {
      const r = check("paper", quote(5, text));
      expect([r.verdict, r.reason]).toEqual(["FLAG", "no-quotation"]);
      expect(r.message).toMatch(/^page 5 exists; no quotation to verify: \d words, need 4$/);
    }
  });

  it("FLAG no-quotation: a page record whose page exists", () => {
    const r = check("paper", { kind: "page", page: 2 });
    expect([r.verdict, r.reason]).toEqual(["FLAG", "no-quotation"]);
    expect(r.message).toBe("page 2 exists; no quotation to verify: 0 words, need 4");
  });

  it("UNANCHORED no-page: a quotation without a page is not checked", () => {
    const r = check("paper", quote(undefined, "reduced the mean squared error by roughly a third"));
    expect([r.verdict, r.reason]).toEqual(["UNANCHORED", "no-page"]);
    const absent = check("paper", quote(undefined, "words that appear nowhere in the paper"));
    expect(absent.verdict).toBe("UNANCHORED");
  });
});

describe("verifyEvidence", () => {
  it("keeps input order and ids, and names the document", async () => {
    const doc = docs.get("paper")!;
    const report = await verifyEvidence(doc, [
      { id: "b", kind: "page", page: 9 },
      { id: "a", kind: "quotation", page: 5, text: "reduced the mean squared error by roughly a third" },
    ]);
    expect(report.document).toEqual({ sha256: doc.sha256, pages: 5 });
    expect(report.results.map((r) => [r.id, r.kind, r.verdict])).toEqual([
      ["b", "page", "FAIL"],
      ["a", "quotation", "PASS"],
    ]);
  });
});
