// locate: every occurrence of some words, with page, printed label, offsets and line boxes, through
// the library and the CLI; ellipses and page breaks; bad input.
import { beforeAll, describe, expect, it } from "vitest";
import { type LocateReport, locateWords } from "../../src/checks/locate.js";
import { checkContext } from "../../src/checks/verify.js";
import { type OpenedDocument, openDocument } from "../../src/document/open.js";
import { CiteproofError } from "../../src/errors.js";
import { fixture } from "../helpers/fixture-files.js";
import { runCliInProcess } from "../helpers/run-cli.js";

const docs = new Map<string, OpenedDocument>();
beforeAll(async () => {
  for (const name of ["labels-article", "labels-book-plain", "page-break"])
    docs.set(name, await openDocument(fixture(name), { noCache: true }));
});

const locate = (name: string, text: string) => locateWords(checkContext(docs.get(name)!), text);

describe("locate", () => {
  it("finds one occurrence with its page, printed label, offsets and line boxes", () => {
    const r = locate("labels-article", "LOWERED the error rate by 14%");
    expect(r.count).toBe(1);
    const [o] = r.occurrences;
    expect([o.page, o.printedPage]).toEqual([1, "217"]);
    const [part] = o.parts;
    const page = docs.get("labels-article")!.pages[0]!;
    expect(part.text).toBe("lowered the error rate by 14%");
    expect(page.text.slice(part.startUtf16, part.endUtf16)).toBe(part.text);
    expect(part.lineBoxes).toHaveLength(1);
    const line = page.lines.find((l) => l.startUtf16 <= part.startUtf16 && l.endUtf16 >= part.endUtf16)!;
    expect(part.lineBoxes[0]).toEqual(line.box);
    expect(o.box).toEqual(line.box);
  });

  it("finds every occurrence, in page order, each page's label with it", () => {
    const r = locate("labels-book-plain", "which a writer may cite by the number printed");
    expect(r.count).toBe(6);
    expect(r.occurrences.map((o) => [o.page, o.printedPage])).toEqual([
      [5, "1"],
      [6, "2"],
      [7, "3"],
      [8, "4"],
      [9, "5"],
      [10, "6"],
    ]);
  });

  it("lists up to 20 occurrences, then counts", () => {
    const r = locate("labels-article", "of the article holds one sentence of filler");
    expect(r.count).toBe(11);
    const many = locate("page-break", "the");
    expect(many.occurrences).toHaveLength(20);
    expect(many.count).toBeGreaterThan(20);
  });

  it("words left out with an ellipsis", () => {
    const r = locate("labels-article", "The treatment lowered … second year");
    expect(r.count).toBe(1);
    expect(r.occurrences[0].parts.map((p) => p.text)).toEqual(["The treatment lowered", "second year"]);
  });

  it("words that run across a page break", () => {
    const r = locate("page-break", "wave respondent of while for the the hours measured study every");
    expect(r.count).toBe(1);
    const [o] = r.occurrences;
    expect([o.page, o.endPage, o.parts.map((p) => p.page)]).toEqual([1, 2, [1, 2]]);
  });

  it("nothing found: count 0", () => {
    expect(locate("labels-article", "words that no page of this article holds").count).toBe(0);
  });

  it.each([
    ["", "text is empty"],
    ["   \n ", "text is empty"],
    ["... alone", "ellipsis with no words"],
  ])("bad text %j: USAGE naming the field", (text, message) => {
    expect(() => locate("labels-article", text)).toThrow(CiteproofError);
    expect(() => locate("labels-article", text)).toThrow(message);
  });
});

describe("citeproof locate", async () => {
  const pdf = fixture("labels-article");
  it("--json: the report, exit 0 when found", async () => {
    const run = await runCliInProcess([
      "locate",
      pdf,
      "--text",
      "a greater share of households",
      "--json",
      "--no-cache",
    ]);
    expect(run.status).toBe(0);
    const report = run.json as LocateReport;
    expect(report.document.pages).toBe(14);
    expect(report.occurrences.map((o) => [o.page, o.printedPage])).toEqual([[3, "219"]]);
  });

  it("human output, exit 1 when not found", async () => {
    const found = await runCliInProcess([
      "locate",
      pdf,
      "--text",
      "a greater share of households",
      "--no-cache",
    ]);
    expect(found.stdout).toMatch(
      /page 3 \(printed 219\) {2}box [\d.,]+ {2}utf16 \d+-\d+ {2}"A greater share of households"/,
    );
    expect(found.stdout).toContain("1 occurrence(s)");
    const missing = await runCliInProcess([
      "locate",
      pdf,
      "--text",
      "a smaller share of households",
      "--no-cache",
    ]);
    expect([missing.status, missing.stdout.trim().split("\n").pop()]).toEqual([1, "not found"]);
  });

  it("empty text: exit 2, a coded one-line message naming --text", async () => {
    const run = await runCliInProcess(["locate", pdf, "--text", "  ", "--json", "--no-cache"]);
    expect(run.status).toBe(2);
    expect(run.json).toEqual({
      error: { code: "USAGE", message: "--text is empty: give the words to find" },
    });
  });
});
