// Printed page labels: the file's /PageLabels, else the folios of the running heads and feet, on
// generated documents (roman front matter then arabic, with and without /PageLabels; an article
// printed 217-230), and none where the pages do not agree.
import { beforeAll, describe, expect, it } from "vitest";
import type { PageText } from "../../src/document/model.js";
import { openDocument } from "../../src/document/open.js";
import { printedLabelsOf } from "../../src/text/printed-labels.js";
import { fixture } from "../helpers/fixture-files.js";

const pagesOf = new Map<string, (PageText | undefined)[]>();
beforeAll(async () => {
  for (const name of ["labels-book", "labels-book-plain", "labels-article", "page-break"])
    pagesOf.set(name, (await openDocument(fixture(name), { noCache: true })).pages);
});

function labels(name: string): (string | undefined)[] {
  const printed = printedLabelsOf(pagesOf.get(name)!);
  return pagesOf.get(name)!.map((_, i) => printed.of(i + 1)?.label);
}

const BOOK = ["i", "ii", "iii", "iv", "1", "2", "3", "4", "5", "6"];

describe("printed labels", () => {
  it("reads the file's /PageLabels", () => {
    expect(labels("labels-book")).toEqual(BOOK);
    expect(printedLabelsOf(pagesOf.get("labels-book")!).of(2)?.source).toBe("page-labels");
    expect(pagesOf.get("labels-book")![0]?.pageLabel).toBe("i");
  });

  it("without /PageLabels, reads the folios the pages agree on", () => {
    expect(pagesOf.get("labels-book-plain")!.every((p) => p?.pageLabel === undefined)).toBe(true);
    expect(labels("labels-book-plain")).toEqual(BOOK);
    expect(printedLabelsOf(pagesOf.get("labels-book-plain")!).of(6)?.source).toBe("running-folio");
  });

  it("reads an article printed 217-230 from its running heads", () => {
    expect(labels("labels-article")).toEqual(Array.from({ length: 14 }, (_, i) => String(217 + i)));
    const printed = printedLabelsOf(pagesOf.get("labels-article")!);
    expect(printed.pagesPrinted(219)).toEqual([3]);
    expect(printed.informative(3)).toBe("219");
  });

  it("gives no label when too few pages agree", () => {
    expect(labels("page-break")).toEqual([undefined, undefined]);
  });

  it("believes printed folios over /PageLabels that they contradict", () => {
    const book = pagesOf.get("labels-book")!;
    // The same pages, their declared labels shifted by one (as when a cover page is put in front).
    const shifted = book.map((p, i) => p && { ...p, lines: p.lines, pageLabel: String(i + 2) });
    expect(shifted.map((_, i) => printedLabelsOf(shifted).of(i + 1)?.label)).toEqual(BOOK);
    expect(printedLabelsOf(shifted).of(1)?.source).toBe("running-folio");
  });
});
