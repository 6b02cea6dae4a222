// Decisions kept between runs (what each page says about its own lines' regions, the printed
// labels): a run that decides them stores them, a later run reads them back and answers the same for
// every line and page; a record of the wrong shape or out of range is refused and decided again; a
// record's name is bound to the code that decides it.
import { beforeAll, describe, expect, it } from "vitest";
import type { PageText } from "../../src/document/model.js";
import { openDocument } from "../../src/document/open.js";
import { type DerivedRecords, recordName } from "../../src/text/derived-records.js";
import { DocumentRegions } from "../../src/text/page-regions.js";
import { PrintedLabels } from "../../src/text/printed-labels.js";
import { derivationKey } from "../../src/util/derivation.js";
import { fixture } from "../helpers/fixture-files.js";

class MemoryRecords implements DerivedRecords {
  readonly values = new Map<string, unknown>();
  reads = 0;
  read(name: string): unknown {
    this.reads++;
    return this.values.get(name);
  }
  write(name: string, value: unknown): void {
    this.values.set(name, structuredClone(value));
  }
}

const pagesOf = new Map<string, (PageText | undefined)[]>();
beforeAll(async () => {
  for (const name of ["regions", "labels-book", "labels-article"])
    pagesOf.set(name, (await openDocument(fixture(name), { noCache: true })).pages);
});

const allRegions = (regions: DocumentRegions, pageCount: number) =>
  Array.from({ length: pageCount }, (_, i) => regions.pageRegions(i + 1));

const allLabels = (labels: PrintedLabels, pageCount: number) =>
  Array.from({ length: pageCount }, (_, i) => labels.of(i + 1) ?? null);

describe("pages' own regions kept between runs", () => {
  const pagesRecord = (records: MemoryRecords) =>
    [...records.values.keys()].find((name) => name.startsWith("regions-pages-")) as string;

  it("keeps every page classified once asked to, and answers the same from them", () => {
    const pages = pagesOf.get("regions")!;
    const records = new MemoryRecords();
    const regions = new DocumentRegions(pages, records);
    const decided = allRegions(regions, pages.length);
    regions.keepPages();
    const name = pagesRecord(records);
    expect(name).toMatch(/^regions-pages-[0-9a-f]{16}$/);
    expect([...(records.values.get(name) as { pages: number[] }).pages].sort()).toEqual([1, 2, 3]);
    const again = new DocumentRegions(pages, records);
    expect(allRegions(again, pages.length)).toEqual(decided);
    // Nothing classified anew: nothing written again.
    records.values.delete(name);
    again.keepPages();
    expect(pagesRecord(records)).toBeUndefined();
  });

  it("reads a page's stored regions back, and refuses ones that do not fit its lines", () => {
    const pages = pagesOf.get("regions")!;
    const decided = allRegions(new DocumentRegions(pages), pages.length);
    const records = new MemoryRecords();
    const first = new DocumentRegions(pages, records);
    allRegions(first, pages.length);
    first.keepPages();
    const name = pagesRecord(records);
    const stored = records.values.get(name) as { pages: number[]; entries: { regions: Uint8Array }[] };
    const at = stored.pages.indexOf(1);
    const lines = pages[0]!.lines.length;
    // Every line of page 1 stored as the margin: read back as stored.
    stored.entries[at].regions = new Uint8Array(lines).fill(6);
    const read = new DocumentRegions(pages, records).pageRegions(1);
    expect(read.filter((r) => r === "margin").length).toBeGreaterThan(lines / 2);
    for (const bad of [
      new Uint8Array(lines - 1),
      new Uint8Array(lines).fill(1 + 2), // running-head: never a page's own decision
      new Uint8Array(lines).fill(40),
    ]) {
      stored.entries[at].regions = bad;
      expect(new DocumentRegions(pages, records).pageRegions(1)).toEqual(decided[0]);
    }
    records.values.set(name, { pages: [1], entries: "x" });
    expect(allRegions(new DocumentRegions(pages, records), pages.length)).toEqual(decided);
  });
});

describe("printed labels kept between runs", () => {
  it("stores every page's label once all are decided and answers the same from them", () => {
    for (const doc of ["labels-book", "labels-article"]) {
      const pages = pagesOf.get(doc)!;
      const records = new MemoryRecords();
      const labels = new PrintedLabels(pages, records);
      const decided = allLabels(labels, pages.length);
      // Labels decided one page at a time are not a record of every page: nothing stored yet.
      expect(records.values.size).toBe(0);
      const printedAs = labels.pagesPrinted(2);
      expect(records.values.size).toBe(1);
      const again = new PrintedLabels(pages, records);
      expect(allLabels(again, pages.length)).toEqual(decided);
      expect(again.pagesPrinted(2)).toEqual(printedAs);
    }
  });

  it("refuses stored labels of the wrong shape or length, and decides again", () => {
    const pages = pagesOf.get("labels-book")!;
    const decided = allLabels(new PrintedLabels(pages), pages.length);
    const records = new MemoryRecords();
    new PrintedLabels(pages, records).pagesPrinted(1);
    const [name] = records.values.keys();
    const n = pages.length;
    for (const bad of [
      undefined,
      { labels: Array(n).fill("1"), sources: new Int8Array(n - 1) },
      { labels: Array(n).fill("1"), sources: Array(n).fill(0) },
      { labels: Array(n).fill(1), sources: new Int8Array(n) },
      { labels: Array(n).fill("1"), sources: new Int8Array(n).fill(5) },
      { labels: Array(n).fill("1"), sources: new Int8Array(n).fill(-1) },
      { labels: Array(n).fill("x".repeat(300)), sources: new Int8Array(n) },
    ]) {
      records.values.set(name, bad);
      expect(allLabels(new PrintedLabels(pages, records), n)).toEqual(decided);
    }
    // A well-formed record answers as stored.
    records.values.set(name, { labels: Array(n).fill(""), sources: new Int8Array(n).fill(-1) });
    expect(allLabels(new PrintedLabels(pages, records), n)).toEqual(Array(n).fill(null));
  });
});

describe("record names", () => {
  it("are bound to the code that decides the record (its derivation key)", () => {
    const regions = recordName("regions-pages");
    const labels = recordName("printed-labels");
    expect(regions).toBe(`regions-pages-${derivationKey("regions-pages")}`);
    expect(labels).toBe(`printed-labels-${derivationKey("printed-labels")}`);
    expect(regions.slice(-16)).not.toBe(labels.slice(-16));
  });
});
