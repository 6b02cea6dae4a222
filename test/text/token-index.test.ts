import { describe, expect, it } from "vitest";
import type { PageText } from "../../src/document/model.js";
import { fold } from "../../src/text/fold.js";
import { FoldedPages, indexTextsOf } from "../../src/text/folded-pages.js";
import { TokenIndex, TokenIndexBuilder, tokensOf } from "../../src/text/token-index.js";

function page(n: number, text: string, hyphens: number[] = []): PageText {
  const box = { left: 0, bottom: 0, right: 600, top: 800 };
  return {
    page: n,
    mediaBox: box,
    cropBox: box,
    rotation: 0,
    width: 600,
    height: 800,
    text,
    lines: [],
    lineEndHyphensUtf16: hyphens,
    graphics: [],
    graphicsDropped: 0,
    fonts: [],
    hasTextLayer: text.trim().length > 0,
  };
}

describe("token index", () => {
  const pages = [
    page(1, "The model is defined as a finite set of nodes."),
    page(2, "A reduction of 5-8% was seen in the second arm."),
    page(3, "We measured the perfor-\nmance of the method.", ["We measured the perfor".length]),
  ];

  it("splits folded text into letter-and-digit runs", () => {
    expect(tokensOf(fold("5-8% of the ﬁnal Nodes").text)).toEqual(["5", "8", "of", "the", "final", "nodes"]);
  });

  it("names only pages holding every word, and none when a word is nowhere", () => {
    const index = TokenIndex.build(3, (n) => [fold(pages[n - 1].text).text]);
    expect(index.candidates("a finite set of nodes")).toEqual([1]);
    expect(index.candidates("5-8% was seen")).toEqual([2]);
    expect(index.candidates("58% was seen")).toEqual([]);
    expect(index.candidates("the")).toEqual([1, 2, 3]);
    expect(index.candidates("--")).toBeUndefined();
  });

  it("round-trips through its serialized form", () => {
    const index = TokenIndex.build(3, (n) => [fold(pages[n - 1].text).text]);
    const again = new TokenIndex(structuredClone(index.serialized));
    expect(again.candidates("a finite set of nodes")).toEqual([1]);
    expect(again.has(2, "second arm")).toBe(true);
    expect(again.has(1, "second arm")).toBe(false);
  });

  it("finds a joined hyphenated word on its page, and is stored once built", () => {
    const built: unknown[] = [];
    const folded = new FoldedPages(pages, { onTokenIndexBuilt: (i) => built.push(i) });
    expect(folded.pagesContaining("the performance of the method")).toEqual([3]);
    expect(folded.pagesContaining("a finite set of edges")).toEqual([]);
    expect(built).toHaveLength(1);
  });

  it("ignores a cached index made for another page count", () => {
    const other = TokenIndex.build(1, () => ["unrelated words"]).serialized;
    const folded = new FoldedPages(pages, { tokenIndex: other });
    expect(folded.findOnPage(1, "a finite set of nodes")).toHaveLength(1);
  });

  it("is the same built a page at a time, in any order, from the pages alone, as over every page at once", () => {
    const whole = new FoldedPages(pages);
    whole.pagesContaining("the");
    const built = TokenIndex.build(3, (n) => whole.indexTexts(n)).serialized;
    const builder = new TokenIndexBuilder(3);
    for (const n of [3, 1, 2]) builder.add(n, indexTextsOf(pages[n - 1]));
    expect(builder.has(2)).toBe(true);
    expect(builder.finish().serialized).toEqual(built);
    // Views already folded for the checks give the same texts.
    expect([1, 2, 3].map((n) => whole.indexTexts(n))).toEqual(pages.map(indexTextsOf));
    const partial = new TokenIndexBuilder(3);
    partial.add(1, indexTextsOf(pages[0]));
    expect(() => partial.finish()).toThrow(/page 2/);
    // Taken by a FoldedPages that has none, and stored as one it built.
    const stored: unknown[] = [];
    const adopting = new FoldedPages(pages, { onTokenIndexBuilt: (i) => stored.push(i) });
    expect(adopting.hasIndex).toBe(false);
    adopting.adoptIndex(builder.finish());
    expect(adopting.hasIndex).toBe(true);
    expect(stored).toEqual([built]);
    expect(adopting.pagesContaining("the performance of the method")).toEqual([3]);
    // One for another page count is not taken.
    const other = new FoldedPages(pages);
    other.adoptIndex(TokenIndex.build(1, () => ["unrelated words"]));
    expect(other.hasIndex).toBe(false);
  });

  it("holds each page's keys once and sorted, however often its views repeat them", () => {
    // A page long enough to grow the key list and its set of seen keys past their first size.
    const words = Array.from({ length: 9000 }, (_, k) => `w${k % 3000}x${k % 7}`).join(" ");
    // Page 2 shares two words with page 1: each page's keys are its own, whatever came before.
    const texts = [words, words.toUpperCase().toLowerCase(), `${words} tail`, "w17x3 w18x4 the model"];
    const once = TokenIndex.build(2, (n) => (n === 1 ? [words] : [texts[3]])).serialized;
    const repeated = TokenIndex.build(2, (n) => (n === 1 ? texts.slice(0, 3) : texts.slice(3))).serialized;
    for (const { offsets, keys } of [once, repeated])
      for (let p = 0; p < 2; p++)
        for (let k = offsets[p] + 1; k < offsets[p + 1]; k++) expect(keys[k]).toBeGreaterThan(keys[k - 1]);
    // The repeats add nothing; the tail's word and its pair add two keys.
    expect(repeated.offsets[1] - repeated.offsets[0]).toBe(once.offsets[1] - once.offsets[0] + 2);
    const index = new TokenIndex(repeated);
    expect(index.candidates("w17x3 w18x4")).toEqual([1, 2]);
    expect(index.candidates("w2999x4 tail")).toEqual([1]);
    expect(index.candidates("the model")).toEqual([2]);
  });
});
