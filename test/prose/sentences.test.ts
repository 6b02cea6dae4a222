import { describe, expect, it } from "vitest";
import { findQuotedSpans } from "../../src/prose/quotes.js";
import { splitSentences } from "../../src/prose/sentences.js";

function sentences(text: string): string[] {
  return splitSentences(text, findQuotedSpans(text)).map((s) => text.slice(s.startUtf16, s.endUtf16));
}

describe("sentence splitting", () => {
  it("splits at a period, question or exclamation mark before a capital", () => {
    expect(sentences("One is here. Two is there? Three! Four.")).toEqual([
      "One is here.",
      "Two is there?",
      "Three!",
      "Four.",
    ]);
  });

  it("does not split after p., pp., Eq., Fig., et al., e.g., i.e., cf.", () => {
    const text =
      "See p. 4 and pp. 3-4 for it. Eq. (3) holds, as Fig. 2 shows. Smith et al. Report it, e.g. Twice, i.e. Always. Cf. The rest.";
    expect(sentences(text)).toEqual([
      "See p. 4 and pp. 3-4 for it.",
      "Eq. (3) holds, as Fig. 2 shows.",
      "Smith et al. Report it, e.g. Twice, i.e. Always.",
      "Cf. The rest.",
    ]);
  });

  it("does not split inside numbers such as 3.2, or after an initial", () => {
    expect(sentences("Section 3.2 of J. Smith shows 0.5. Next one.")).toEqual([
      "Section 3.2 of J. Smith shows 0.5.",
      "Next one.",
    ]);
  });

  it("does not split before a lowercase word", () => {
    expect(sentences("The value is approx. three. and so on. Then more.")).toEqual([
      "The value is approx. three. and so on.",
      "Then more.",
    ]);
  });

  it("never splits inside a quotation, but a quotation ending a sentence ends it", () => {
    const text = 'They write "It works. It scales." Then p. 3 follows. After "the end." the text goes on.';
    expect(sentences(text)).toEqual([
      'They write "It works. It scales."',
      "Then p. 3 follows.",
      'After "the end." the text goes on.',
    ]);
  });

  it("splits at a blank line and after a closing quote or bracket", () => {
    expect(sentences('A heading\n\nIt said "done". (And this.) Next.')).toEqual([
      "A heading",
      'It said "done".',
      "(And this.)",
      "Next.",
    ]);
  });
});
