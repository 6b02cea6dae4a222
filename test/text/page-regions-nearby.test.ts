// A line's region is decided from its page and the pages near it, so a check that read only those
// pages (cited pages first) answers as one that read the whole document: running heads recur within
// a window of pages (heads set on alternate pages of a two-sided book too), and a references list is
// reached by walking back from the line to its heading.
import { beforeAll, describe, expect, it } from "vitest";
import type { PageText } from "../../src/document/model.js";
import { openDocument } from "../../src/document/open.js";
import { DocumentRegions, RUNNING_HEAD_WINDOW } from "../../src/text/page-regions.js";
import { fixture } from "../helpers/fixture-files.js";

const pagesOf = new Map<string, (PageText | undefined)[]>();
beforeAll(async () => {
  for (const name of ["regions-book", "regions", "labels-book"])
    pagesOf.set(name, (await openDocument(fixture(name), { noCache: true })).pages);
});

/** The pages as an array that throws for any page farther than the window from `page`. */
function nearOnly(pages: (PageText | undefined)[], page: number): (PageText | undefined)[] {
  return new Proxy(pages, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/u.test(key)) {
        const p = Number(key) + 1;
        if (Math.abs(p - page) > RUNNING_HEAD_WINDOW) throw new Error(`page ${p} read for page ${page}`);
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

const lineOf = (pages: (PageText | undefined)[], page: number, words: string) => {
  const text = pages[page - 1] as PageText;
  const i = text.lines.findIndex((l) => text.text.slice(l.startUtf16, l.endUtf16).includes(words));
  expect(i, `"${words}" on page ${page}`).toBeGreaterThanOrEqual(0);
  return i;
};

describe("regions decided from the pages near a line", () => {
  it("gives every line of every page, read with its neighbourhood only, the region the whole document gives", () => {
    for (const [name, pages] of pagesOf) {
      const whole = new DocumentRegions(pages);
      for (let p = 1; p <= pages.length; p++) {
        const near = new DocumentRegions(nearOnly(pages, p)).pageRegions(p);
        expect(near, `${name} page ${p}`).toEqual(whole.pageRegions(p));
      }
    }
    // The book is long enough that no page's neighbourhood is all of it.
    expect(pagesOf.get("regions-book")?.length).toBeGreaterThan(2 * RUNNING_HEAD_WINDOW + 1);
  });

  it("finds a two-sided book's heads on alternate pages, and none on a chapter's first page", () => {
    const pages = pagesOf.get("regions-book") as PageText[];
    const regions = new DocumentRegions(pages);
    // The chapter on left-hand pages, the section on right-hand ones (those of sections spanning
    // three right-hand pages or more).
    for (const [page, head] of [
      [2, "CHAPTER 1. SURVEY DESIGN"],
      [16, "CHAPTER 2. WEIGHTING"],
      [30, "CHAPTER 3. VARIANCE"],
      [7, "1.2. STRATA AND CLUSTERS"],
      [17, "2.2. BOUNDS ON THE WEIGHTS"],
      [27, "3.2. LINEARISATION"],
    ] as const)
      expect(regions.pageRegions(page)[lineOf(pages, page, head)], `${head} on page ${page}`).toBe(
        "running-head",
      );
    for (const page of [1, 11, 21]) {
      expect(regions.pageRegions(page)[lineOf(pages, page, "Chapter")]).toBe("body");
      // The folio at the foot of a chapter's first page is a page number.
      expect(regions.pageRegions(page).at(-1)).toBe("running-head");
    }
  });

  it("marks a chapter's references list and the book's bibliography, not the text before them", () => {
    const pages = pagesOf.get("regions-book") as PageText[];
    const regions = new DocumentRegions(pages);
    const chapter = regions.pageRegions(19);
    expect(chapter[lineOf(pages, 19, "Bounded adjustment of household weights")]).toBe("references");
    expect(chapter[lineOf(pages, 19, "References")]).toBe("body");
    expect(chapter[lineOf(pages, 19, "the step numbered 140")]).toBe("body");
    expect(regions.pageRegions(31)[lineOf(pages, 31, "Bootstrap weights for household surveys")]).toBe(
      "references",
    );
    // The next chapter's text is not in the list the last one ended with.
    expect(new Set(regions.pageRegions(22))).not.toContain("references");
  });
});
