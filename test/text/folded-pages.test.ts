// Finding folded quotations on pages: both hyphen readings, word boundaries, pages holding words,
// and the closest line to a quotation that is not there.
import { describe, expect, it } from "vitest";
import type { PageText } from "../../src/document/model.js";
import { closestLine } from "../../src/text/closest-line.js";
import { fold } from "../../src/text/fold.js";
import { FoldedPages, onWordBoundaries } from "../../src/text/folded-pages.js";
import { textPage } from "../helpers/page-text.js";

/** A page holding `text`, lines split at '\n', line-end hyphens at the given offsets. */
function page(n: number, text: string, hyphens: number[] = []): PageText {
  return textPage(n, text, { hyphens });
}

const needle = (s: string) => fold(s, { trim: true }).text;

describe("onWordBoundaries", () => {
  it("never cuts a word or number", () => {
    expect(onWordBoundaries("in 158 trials", 4, "58")).toBe(false);
    expect(onWordBoundaries("in 58 trials", 3, "58")).toBe(true);
    expect(onWordBoundaries("the ensembles", 4, "ensemble")).toBe(false);
    expect(onWordBoundaries("an effect (58%)", 11, "58%")).toBe(true);
    // A needle that begins or ends with punctuation may touch a word there.
    expect(onWordBoundaries("x(58%)", 1, "(58%)")).toBe(true);
  });

  it("never cuts a number at its decimal point or thousands separator", () => {
    // "The rate was 3" is not on a page that says "The rate was 3.5": a false PASS before.
    expect(onWordBoundaries("the rate was 3.5 in all", 4, "rate was 3")).toBe(false);
    expect(onWordBoundaries("the rate was 3.5 in all", 4, "rate was 3.")).toBe(false);
    expect(onWordBoundaries("a total of 1,000 units", 2, "total of 1")).toBe(false);
    expect(onWordBoundaries("the rate was 3.5 in all", 15, "5 in all")).toBe(false);
    // Nor at a range's dash, nor after a number's sign.
    expect(onWordBoundaries("by between 5-8% of", 3, "between 5")).toBe(false);
    expect(onWordBoundaries("by between 5-8% of", 13, "8% of")).toBe(false);
    expect(onWordBoundaries("fell to -3 degrees", 9, "3 degrees")).toBe(false);
    expect(onWordBoundaries("a 5-year plan", 2, "5-year plan")).toBe(true);
    expect(onWordBoundaries("the 5-year plan", 0, "the 5")).toBe(true);
    // A number that ends its sentence or a list item still ends there.
    expect(onWordBoundaries("the rate was 3. Then", 4, "rate was 3")).toBe(true);
    expect(onWordBoundaries("the rate was 3. Then", 4, "rate was 3.")).toBe(true);
    expect(onWordBoundaries("in 2019, 2020 was", 0, "in 2019")).toBe(true);
    expect(onWordBoundaries("in 2019, 2020 was", 9, "2020 was")).toBe(true);
  });
});

describe("FoldedPages", () => {
  const text3 = "The measured overall perfor-\nmance of the system im-\nproved steadily.";
  const pages = new FoldedPages([
    page(1, "Front matter, printed i.\nNothing to see."),
    undefined,
    page(3, text3, [text3.indexOf("perfor-") + 6, text3.indexOf("im-") + 2]),
    page(4, "An effect of 5\u20138% was seen in 158 trials.\nThe system improved steadily."),
  ]);

  it("finds a quotation across a line break, in original offsets", () => {
    const matches = pages.findOnPage(3, needle("overall performance of the system"));
    expect(matches).toHaveLength(1);
    const m = matches[0];
    expect(m.reading).toBe("joined");
    expect(text3.slice(m.startUtf16, m.endUtf16)).toBe("overall perfor-\nmance of the system");
  });

  it("finds the kept reading of a line-end hyphen too", () => {
    const m = pages.findOnPage(3, needle("overall perfor-mance of the system"));
    expect(m.map((x) => x.reading)).toEqual(["kept"]);
    // Both readings of one passage: joined and kept differ, each found once.
    expect(pages.findOnPage(3, needle("system improved steadily"))).toHaveLength(1);
    expect(pages.findOnPage(3, needle("system im-proved steadily"))).toHaveLength(1);
  });

  it("respects word boundaries: 58 is not in 158, nor 5-8", () => {
    expect(pages.findOnPage(4, needle("58 trials"))).toEqual([]);
    expect(pages.findOnPage(4, needle("158 trials"))).toHaveLength(1);
    expect(pages.findOnPage(4, needle("effect of 58% was seen"))).toEqual([]);
    expect(pages.findOnPage(4, needle("effect of 5-8% was seen"))).toHaveLength(1);
  });

  it("lists every page holding the words, and skips missing pages", () => {
    expect(pages.pagesContaining(needle("the system improved steadily"))).toEqual([3, 4]);
    expect(pages.pagesContaining(needle("printed i"))).toEqual([1]);
    expect(pages.pagesContaining(needle("not anywhere at all"))).toEqual([]);
    expect(pages.findOnPage(2, needle("anything"))).toEqual([]);
    // A quotation never matches across the boundary between two pages.
    expect(pages.pagesContaining(needle("nothing to see. the measured"))).toEqual([]);
  });
});

describe("closestLine", () => {
  const p = page(
    1,
    [
      "Across the three panels the calibrated estimator reduced the mean",
      "squared error by roughly a third relative to the unweighted mean.",
      "Standard errors come from a bootstrap.",
    ].join("\n"),
  );

  it("names the line sharing the longest in-order run of words", () => {
    const c = closestLine(p, "Standard errors come from a jackknife")!;
    expect(c.text).toBe("Standard errors come from a bootstrap.");
    expect(c.similarity).toBeCloseTo(5 / 6, 5);
    expect(p.text.slice(c.startUtf16, c.endUtf16)).toBe("Standard errors come from a bootstrap.");
  });

  it("spans two lines when the quotation crosses a break", () => {
    const c = closestLine(p, "reduced the mean squared error by roughly a half")!;
    expect(c.text).toBe(
      "Across the three panels the calibrated estimator reduced the mean squared error by roughly a third relative to the unweighted mean.",
    );
  });

  it("reads a pair of lines as one text when nothing parts them, and folds ligatures per line", () => {
    // Two lines with no separator between them: the pair's words run together ("meanSquared").
    const joined = page(3, "the mean");
    joined.text = "the \uFB01nal meanSquared error";
    joined.lines = [
      { startUtf16: 0, endUtf16: 13, box: joined.lines[0].box, fontSize: 10 },
      { startUtf16: 13, endUtf16: 26, box: joined.lines[0].box, fontSize: 10 },
    ];
    const c = closestLine(joined, "the final meansquared error")!;
    expect(c.similarity).toBe(1);
    expect([c.startUtf16, c.endUtf16]).toEqual([0, 26]);
    const single = closestLine(joined, "the final mean")!;
    expect([single.startUtf16, single.endUtf16, single.similarity]).toEqual([0, 13, 1]);
  });

  it("names nothing when no word is shared", () => {
    expect(closestLine(p, "entirely unrelated wording here")).toBeUndefined();
    expect(closestLine(page(2, ""), "anything at all here")).toBeUndefined();
  });
});

describe("a search over every page while only some pages can be read", () => {
  it("waits for the rest without folding the pages held so far", () => {
    const pages = [page(1, "alpha beta gamma"), page(2, "delta epsilon")];
    let read = 0;
    const counted = new Proxy(pages, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) read++;
        return Reflect.get(target, key, receiver);
      },
    });
    let everyPage = false;
    let wanted = 0;
    const folded = new FoldedPages(counted, {
      everyPage: { readable: () => everyPage, wanted: () => wanted++ },
    });
    // Asked too early: nothing found, and the caller told that the search waits for every page.
    expect(folded.pagesContaining(fold("delta epsilon").text)).toEqual([]);
    expect(folded.candidatePages(fold("delta").text)).toEqual([]);
    expect(folded.labels.pagesPrinted("2")).toEqual([]);
    expect(wanted).toBe(3);
    expect(read).toBe(0);
    everyPage = true;
    expect(folded.pagesContaining(fold("delta epsilon").text)).toEqual([2]);
    expect(wanted).toBe(3);
  });
});
