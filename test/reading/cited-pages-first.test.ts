// Cited pages first: a verify whose quotations are all on their pages reads only those pages; a
// quotation that is not on its page makes the rest of the document be read, and every result is
// the one the whole document gives.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { EvidenceRecord } from "../../src/checks/evidence-record.js";
import { TOKEN_INDEX_RECORD, verifyEvidence } from "../../src/checks/verify.js";
import { cacheEntryPath, ExtractionCache } from "../../src/document/cache.js";
import { readRestOfDocument } from "../../src/document/complete.js";
import type { PageText } from "../../src/document/model.js";
import { openDocument } from "../../src/document/open.js";
import { verifyPdf } from "../../src/reading/cited-pages-first.js";
import { fold } from "../../src/text/fold.js";
import { FoldedPages, indexTextsOf } from "../../src/text/folded-pages.js";
import { TokenIndex, TokenIndexBuilder } from "../../src/text/token-index.js";
import { fixture, listFiles, tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let counter = 0;
const fresh = (name: string) => join(tmp.dir, `${name}-${counter++}`);

const PAPER = fixture("paper");
const ON_PAGE_5 = "reduced the mean squared error by roughly a third";
const PREFACE = "This report grew out of a workshop on official statistics for small areas";
const TRUE_RECORDS: EvidenceRecord[] = [
  { id: "a", kind: "quotation", page: 5, text: ON_PAGE_5 },
  { id: "b", kind: "quotation", page: 2, text: PREFACE },
  { id: "c", kind: "page", page: 4 },
  { id: "d", kind: "quotation", text: "no page named for these words at all" },
  { id: "e", kind: "quotation", page: 9, text: "a page the document does not have" },
];

/** The cache's per-page text files, as page numbers; and whether the whole-document file is there. */
function cachedText(root: string): { pages: number[]; whole: boolean } {
  const files = listFiles(root);
  const pages = files
    .map((f) => /p(\d{5})\.text\.bin$/.exec(f)?.[1])
    .filter((p): p is string => p !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  return { pages, whole: files.some((f) => f.endsWith("/text.bin")) };
}

async function wholeDocumentReport(records: EvidenceRecord[]) {
  return verifyEvidence(await openDocument(PAPER, { noCache: true }), records);
}

describe("verify reads the cited pages first", () => {
  it("reads only the cited pages when every quotation is on its page", async () => {
    const root = fresh("true");
    const report = await verifyPdf(PAPER, TRUE_RECORDS, { cacheDir: root });
    expect(report.results.map((r) => r.reason)).toEqual([
      "found",
      "found",
      "no-quotation",
      "no-page",
      "no-such-page",
    ]);
    expect(report).toEqual(await wholeDocumentReport(TRUE_RECORDS));
    // The cited pages and the pages around them their printed labels are decided from: all five here,
    // so the text layer is stored as one file, not a file a page.
    expect(cachedText(root)).toEqual({ pages: [], whole: true });
  });

  it("reads the rest of the document for a quotation not on its page, and finds where it is", async () => {
    const records: EvidenceRecord[] = [
      ...TRUE_RECORDS,
      { id: "w", kind: "quotation", page: 3, text: ON_PAGE_5 },
      { id: "x", kind: "quotation", page: 5, text: "words that stand on no page of this paper" },
    ];
    const root = fresh("wrong");
    const cold = await verifyPdf(PAPER, records, { cacheDir: root });
    expect(cold.results.slice(-2).map((r) => r.reason)).toEqual(["wrong-page", "absent"]);
    expect(cold.results[5].evidence.foundOnPages).toEqual([5]);
    expect(cold).toEqual(await wholeDocumentReport(records));
    // The pages read first (here, with their label neighbourhoods, all five) are the whole document:
    // its text layer is stored as one file.
    expect(cachedText(root)).toEqual({ pages: [], whole: true });
    expect(await verifyPdf(PAPER, records, { cacheDir: root })).toEqual(cold);
    expect(await verifyPdf(PAPER, records, { noCache: true })).toEqual(cold);
  });

  it("reads only the cited pages and their neighbourhoods when a match stands in a running head", async () => {
    // A 31-page two-sided book: one quotation is the running head of page 17, one is in the body of
    // page 16, one in the bibliography on the last page. Whether the head is one is decided from the
    // pages near it, whether an entry is in the references list by walking back to its heading.
    const book = fixture("regions-book");
    const records: EvidenceRecord[] = [
      { id: "head", kind: "quotation", page: 17, text: "2.2. Bounds on the weights" },
      { id: "body", kind: "quotation", page: 16, text: "Paragraph 111 of the book sets out one more step" },
      {
        id: "list",
        kind: "quotation",
        page: 31,
        text: "Replicate weights for the variance of calibrated estimators",
      },
    ];
    const root = fresh("heads");
    const report = await verifyPdf(book, records, { cacheDir: root });
    expect(report.results.map((r) => [r.verdict, r.reason])).toEqual([
      ["PASS", "found"],
      ["PASS", "found"],
      ["PASS", "found"],
    ]);
    expect(report.results.map((r) => (r.evidence.matches as { region: string }[])[0].region)).toEqual([
      "running-head",
      "body",
      "references",
    ]);
    expect(report).toEqual(await verifyEvidence(await openDocument(book, { noCache: true }), records));
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    expect(cachedText(root)).toEqual({ pages: [...range(10, 23), ...range(25, 31)], whole: false });
  });

  it("builds the token index while the other pages arrive, the same as one built over every page", async () => {
    const book = fixture("regions-book");
    // Cited on page 5, the words stand on page 23: every other page is read and searched.
    const records: EvidenceRecord[] = [
      { kind: "quotation", page: 5, text: "Paragraph 160 of the book sets out one more step" },
    ];
    const root = fresh("streamed");
    const report = await verifyPdf(book, records, { cacheDir: root });
    expect(report.results[0]).toMatchObject({ verdict: "FAIL", reason: "wrong-page" });
    const whole = await openDocument(book, { noCache: true });
    expect(report).toEqual(await verifyEvidence(whole, records));
    const folded = new FoldedPages(whole.pages);
    const built = TokenIndex.build(whole.pageCount, (page) => folded.indexTexts(page)).serialized;
    const stored = new ExtractionCache(root, whole.sha256).readRecord(TOKEN_INDEX_RECORD);
    expect(stored).toEqual(built);
  });

  it("never reads a page it did not read as empty", async () => {
    // Quoted on page 1, the abstract's words are there; on page 2 they are not, but they are on page 1.
    const records: EvidenceRecord[] = [
      { kind: "quotation", page: 2, text: "Small regional surveys rarely have the sample sizes" },
    ];
    const report = await verifyPdf(PAPER, records, { cacheDir: fresh("moved") });
    expect(report.results[0]).toMatchObject({ verdict: "FAIL", reason: "wrong-page" });
    expect(report.results[0].evidence.foundOnPages).toEqual([1]);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("never proposes a page the index claims but the text does not hold (a hash collision)", async () => {
    const book = fixture("regions-book");
    const whole = await openDocument(book, { noCache: true });
    const absent = "words that stand on no page of this book at all";
    const moved = "Paragraph 160 of the book sets out one more step";
    const records: EvidenceRecord[] = [
      { id: "moved", kind: "quotation", page: 5, text: moved },
      { id: "absent", kind: "quotation", page: 5, text: absent },
    ];
    const truth = await verifyEvidence(whole, records);
    expect(truth.results.map((r) => r.reason)).toEqual(["wrong-page", "absent"]);
    // An index whose keys collide with every pair of these words on every page: each page is a
    // candidate for both quotations, and only the page's own text may decide.
    const forged = new TokenIndexBuilder(whole.pageCount);
    for (const page of whole.pages as PageText[])
      forged.add(page.page, [...indexTextsOf(page), fold(moved).text, fold(absent).text]);
    const root = fresh("collision");
    new ExtractionCache(root, whole.sha256).writeRecord(TOKEN_INDEX_RECORD, forged.finish().serialized);
    const folded = new FoldedPages(whole.pages, { tokenIndex: forged.finish().serialized });
    expect(folded.candidatePages(fold(absent).text)).toHaveLength(whole.pageCount);
    expect(folded.pagesContaining(fold(absent).text)).toEqual([]);
    expect(await verifyPdf(book, records, { cacheDir: root })).toEqual(truth);
  });

  it("holds no page once the rest is read: every page is stored as it comes in and read back one at a time", async () => {
    const book = fixture("regions-book");
    const whole = await openDocument(book, { noCache: true });
    const root = fresh("rest");
    const doc = await openDocument(book, { cacheDir: root, pages: [5] });
    const pages = Array.from(doc.pages);
    pages.length = doc.pageCount;
    const given: number[] = [];
    const rest = await readRestOfDocument(doc, pages, {}, (text) => given.push(text.page));
    // Page 5, held before, is stored with the others and let go.
    expect(pages.flatMap((p, i) => (p ? [i + 1] : []))).toEqual([]);
    expect(given.sort((a, b) => a - b)).toEqual(whole.pages.map((_, i) => i + 1).filter((p) => p !== 5));
    expect([rest.anyUnreadable, rest.extractedPages]).toEqual([false, whole.pageCount - 1]);
    for (const page of [23, 5, 1, 31, 23]) expect(rest.readPage(page)).toEqual(whole.pages[page - 1]);
    // Stored as one file: a later read of every page takes it whole.
    expect(new ExtractionCache(root, whole.sha256).readDocumentText()).toEqual(whole.pages);
    // The cache emptied since: a page not read back before is no longer there.
    rmSync(join(root, cacheEntryPath(whole.sha256), "text.bin"));
    expect(rest.readPage(12)).toBeUndefined();
    // Without a cache every page is held.
    const uncached = await openDocument(book, { noCache: true, pages: [5] });
    const held = Array.from(uncached.pages);
    held.length = uncached.pageCount;
    await readRestOfDocument(uncached, held);
    expect(held).toEqual(whole.pages);
  });

  it("leaves no unfinished document text file when reading the rest fails", async () => {
    const book = fixture("regions-book");
    const root = fresh("deadline");
    const doc = await openDocument(book, { cacheDir: root, pages: [5] });
    const pages = Array.from(doc.pages);
    pages.length = doc.pageCount;
    await expect(readRestOfDocument(doc, pages, { timeoutMs: 1 }, () => {})).rejects.toMatchObject({
      code: "EXTRACTION_TIMEOUT",
    });
    expect(listFiles(root).filter((f) => f.includes("text.bin"))).toEqual(
      listFiles(root).filter((f) => /p\d{5}\.text\.bin$/.test(f)),
    );
  });

  it("reads every page again when the cache loses a page it stored during the verify", async () => {
    const book = fixture("regions-book");
    const records: EvidenceRecord[] = [
      { kind: "quotation", page: 5, text: "Paragraph 160 of the book sets out one more step" },
    ];
    const truth = await verifyEvidence(await openDocument(book, { noCache: true }), records);
    // A cache that stores pages but never gives one back (emptied by another process meanwhile).
    const read = vi.spyOn(ExtractionCache.prototype, "readPageText").mockReturnValue(undefined);
    expect(await verifyPdf(book, records, { cacheDir: fresh("lost") })).toEqual(truth);
    expect(read).toHaveBeenCalled();
  });
  it("checks records while the pages arrive, each with the whole document's result", async () => {
    // A 31-page book, records all over it: words of a page cited on it, two pages off and nowhere,
    // and page records. The pages read first arrive one by one; a record is checked once the pages
    // around its own are in, and its result must be the one the whole document gives.
    const book = fixture("regions-book");
    const whole = await openDocument(book, { noCache: true });
    const records: EvidenceRecord[] = [];
    for (let page = 1; page <= whole.pageCount; page += 3) {
      // Each paragraph's opening words name its number: on one page only.
      const pattern = /Paragraph \d+ of the book sets out one more step/;
      const text = pattern.exec(whole.pages[page - 1]?.text ?? "")?.[0];
      if (!text) continue;
      records.push({ id: `on-${page}`, kind: "quotation", page, text });
      records.push({ id: `off-${page}`, kind: "quotation", page: page + 2, text });
      records.push({ id: `page-${page}`, kind: "page", page });
    }
    records.push({
      id: "nowhere",
      kind: "quotation",
      page: 4,
      text: "these words stand on no page of the book",
    });
    expect(records.length).toBeGreaterThan(20);
    const root = fresh("arriving");
    const cold = await verifyPdf(book, records, { cacheDir: root });
    expect(cold).toEqual(await verifyEvidence(whole, records));
    const reasons = new Set(cold.results.filter((r) => r.kind === "quotation").map((r) => r.reason));
    expect(reasons).toEqual(new Set(["found", "wrong-page", "absent"]));
    // Only the first ones on their pages: the pages read first are some of the book, checked as they come.
    const first = records.filter((r) => r.id === "on-1" || r.id === "page-1");
    expect(await verifyPdf(book, first, { cacheDir: fresh("first") })).toEqual(
      await verifyEvidence(whole, first),
    );
  });
});

/** A quotation of each third page's paragraph opening (its number makes it stand on that page only). */
function everyThirdPage(
  pages: readonly (PageText | undefined)[],
): Extract<EvidenceRecord, { kind: "quotation" }>[] {
  const records: Extract<EvidenceRecord, { kind: "quotation" }>[] = [];
  for (let page = 1; page <= pages.length; page += 3) {
    const text = /Paragraph \d+ of the book sets out one more step/.exec(pages[page - 1]?.text ?? "")?.[0];
    if (text) records.push({ id: `on-${page}`, kind: "quotation", page, text });
  }
  return records;
}

describe("the search over every page when the pages read first are every page", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("builds the token index once, as the pages arrive, and lets go of the views of the pages checked", async () => {
    // Records every third page of a 31-page book: the pages read first are all of them. One record is
    // two pages off: from it on, the index is built as pages come in and views are no longer kept.
    const book = fixture("regions-book");
    const whole = await openDocument(book, { noCache: true });
    const records = everyThirdPage(whole.pages);
    const moved = records.find((r) => r.page === 4);
    records.push({ ...moved!, id: "off", page: 6 });
    const truth = await verifyEvidence(whole, records);
    expect(truth.results.find((r) => r.id === "off")).toMatchObject({ reason: "wrong-page" });
    const builtWhole = vi.spyOn(TokenIndex, "build");
    const released = vi.spyOn(FoldedPages.prototype, "releaseViews");
    const root = fresh("arriving-index");
    expect(await verifyPdf(book, records, { cacheDir: root })).toEqual(truth);
    expect(builtWhole).not.toHaveBeenCalled();
    expect(released).toHaveBeenCalledTimes(1);
    const folded = new FoldedPages(whole.pages);
    const built = TokenIndex.build(whole.pageCount, (page) => folded.indexTexts(page)).serialized;
    const stored = new ExtractionCache(root, whole.sha256).readRecord(TOKEN_INDEX_RECORD);
    expect(stored).toEqual(built);
  });

  it("keeps every page's views and builds no index when every record is answered on its page", async () => {
    const book = fixture("regions-book");
    const whole = await openDocument(book, { noCache: true });
    const records = everyThirdPage(whole.pages);
    const add = vi.spyOn(TokenIndexBuilder.prototype, "add");
    const released = vi.spyOn(FoldedPages.prototype, "releaseViews");
    const root = fresh("arriving-true");
    const report = await verifyPdf(book, records, { cacheDir: root });
    expect(report.results.every((r) => r.reason === "found")).toBe(true);
    expect([add.mock.calls.length, released.mock.calls.length]).toEqual([0, 0]);
    expect(new ExtractionCache(root, whole.sha256).readRecord(TOKEN_INDEX_RECORD)).toBeUndefined();
  });
});

describe("an extraction told as it runs", () => {
  it("tells the page count first, then each page extracted now in page order, not those from the cache", async () => {
    const root = fresh("told");
    const told: (string | number)[] = [];
    const hooks = {
      onOpened: (pageCount: number) => told.push(`opened ${pageCount}`),
      onPageText: (text: { page: number }) => told.push(text.page),
    };
    await openDocument(PAPER, { cacheDir: root, pages: [3, 1, 2], ...hooks });
    expect(told).toEqual(["opened 5", 1, 2, 3]);
    told.length = 0;
    await openDocument(PAPER, { cacheDir: root, pages: [2, 3, 4], ...hooks });
    expect(told).toEqual(["opened 5", 4]);
    told.length = 0;
    await openDocument(PAPER, { cacheDir: root, pages: [1, 4], ...hooks });
    expect(told).toEqual([]);
  });
});
