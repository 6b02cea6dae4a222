// The passage of a page closest to a quotation: the page's words are found by searching for the
// quotation's words, whole words only, with the quotation's first word allowed to end a page word and
// its last to begin one behind a mark that is not a letter or digit.
import { describe, expect, it } from "vitest";
import { closestPassage } from "../../src/text/closest-passage.js";
import { fold } from "../../src/text/fold.js";

function closest(page: string, quoted: string) {
  return closestPassage(page, fold(page), quoted, fold(quoted, { trim: true }));
}

describe("closestPassage", () => {
  it("finds the stretch that holds the quotation's words and names the word that differs", () => {
    const page =
      "Results were mixed. The treatment lowered the error rate by 14% in the second year, as expected.";
    const found = closest(page, "the treatment lowered the error rate by 41% in the second year");
    expect(found?.text).toBe("The treatment lowered the error rate by 14% in the second year,");
    expect(found?.differences).toEqual([{ page: "14%", quotation: "41%" }]);
    expect(found?.similarity).toBeCloseTo(11 / 12);
  });

  it("counts whole words only: a quotation word inside a longer page word is not shared", () => {
    const found = closest("there thereafter theorem", "the");
    expect(found).toBeUndefined();
    const other = closest("a bathe the end", "the end");
    expect(other?.text).toBe("the end");
  });

  it("lets the first word end a page word and the last begin one behind punctuation", () => {
    const found = closest(
      "as shown (the method holds in general form.) later",
      "the method holds in general form",
    );
    expect(found?.text).toBe("(the method holds in general form.)");
    expect(found?.similarity).toBe(1);
    expect(found?.differences).toEqual([]);
  });

  it("does not let a middle word, or a letter before it, take that freedom", () => {
    const inner = closest("alpha (beta gamma", "alpha beta gamma");
    expect(inner?.similarity).toBeCloseTo(2 / 3);
    const letter = closest("xthe method", "the method");
    expect(letter?.similarity).toBeCloseTo(1 / 2);
  });

  it("places a quotation with repeated words where they all line up", () => {
    const page = "to be or not to be. That is the question; to be sure, whether to be noble";
    const found = closest(page, "whether to be noble");
    expect(found?.text).toBe("whether to be noble");
    const again = closest(page, "to be or not to be");
    expect(again?.text).toBe("to be or not to be.");
  });

  it("gives the page's offsets in UTF-16 units of the original text", () => {
    const page = "𝑥 ﬁrst ﬁnding stands";
    const found = closest(page, "first finding");
    expect(found && page.slice(found.startUtf16, found.endUtf16)).toBe("ﬁrst ﬁnding");
  });

  it("places a quotation by its rarer words among common ones, and by common words when it has no other", () => {
    const filler = "and the of the in the ".repeat(300);
    const page = `${filler}The ferryman counted the boats of the harbour at dawn. ${filler}`;
    const found = closest(page, "the ferryman counted the ships of the harbour at dawn");
    expect(found?.text).toBe("The ferryman counted the boats of the harbour at dawn.");
    expect(found?.differences).toEqual([{ page: "boats", quotation: "ships" }]);
    // Every word more common than any placing needs: the passage is still found, from the common words.
    const common = closest(filler, "of the in the and the of the");
    expect(common?.similarity).toBe(1);
  });
});
