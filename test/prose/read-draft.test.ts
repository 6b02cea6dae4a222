import { describe, expect, it } from "vitest";
import { anchorName } from "../../src/prose/citation-forms.js";
import { readDraft } from "../../src/prose/read-draft.js";

function summary(text: string) {
  return readDraft(text).citations.map((c) => [
    c.kind,
    c.anchor ? anchorName(c.anchor) : null,
    c.quote?.text ?? null,
  ]);
}

describe("reading a draft", () => {
  it("gives a quotation to the page named in its own sentence only", () => {
    expect(summary('On p. 2 it is shown. They write "words that are quoted here".')).toEqual([
      ["page", "p. 2", null],
      ["unanchored", null, "words that are quoted here"],
    ]);
  });

  it("gives a quotation to the nearest page before it in the sentence, else the one after", () => {
    expect(
      summary('On p. 2 and p. 5 they write "the first quoted words". "The second quoted words" is on p. 7.'),
    ).toEqual([
      ["quotation", "p. 5", "the first quoted words"],
      ["quotation", "p. 7", "The second quoted words"],
      ["page", "p. 2", null],
    ]);
  });

  it.each([
    [
      "the period inside the quotation marks",
      'They say "We do assume prior knowledge of a controller." (p. 1). Next.',
    ],
    ["the period outside", 'They say "We do assume prior knowledge of a controller" (p. 1). Next.'],
    [
      "curly quotes, a line break before the page",
      "They say \u201cWe do assume prior knowledge of a controller.\u201d\n(p. 1).",
    ],
    [
      "a comma inside, the page as the verb's subject",
      '"We do assume prior knowledge of a controller," p. 1 notes.',
    ],
    ["a comma outside", '"We do assume prior knowledge of a controller", p. 1 notes.'],
  ])("gives a quotation the page written right after its closing quote: %s", (_label, draft) => {
    expect(summary(draft)).toEqual([
      ["quotation", "p. 1", expect.stringMatching(/^We do assume prior knowledge of a controller[.,]?$/)],
    ]);
  });

  it("prefers the page right after the closing quote to one earlier in the sentence", () => {
    expect(summary('As p. 3 shows, "the second quoted words stand here," p. 4 adds.')).toEqual([
      ["quotation", "p. 4", "the second quoted words stand here,"],
      ["page", "p. 3", null],
    ]);
  });

  it("does not take a page across a blank line or past other words", () => {
    expect(summary('They say "We do assume prior knowledge of a controller."\n\n(p. 1).')).toEqual([
      ["page", "p. 1", null],
      ["unanchored", null, "We do assume prior knowledge of a controller."],
    ]);
    expect(summary('They say "We do assume prior knowledge of a controller." Later, (p. 1).')).toEqual([
      ["page", "p. 1", null],
      ["unanchored", null, "We do assume prior knowledge of a controller."],
    ]);
  });

  it("reads a page with a quotation under 12 or over 400 characters as the page alone", () => {
    const long = "word ".repeat(90).trim();
    const r = readDraft(`On p. 3 they say "too short". On p. 4 they paste "${long}".`);
    expect(r.citations.map((c) => [c.kind, c.quote?.text ?? null])).toEqual([
      ["page", null],
      ["page", null],
    ]);
    expect(r.droppedQuotes.map((q) => q.status)).toEqual(["too-short", "too-long"]);
  });

  it("ignores citation forms inside a quotation: they are the source's words", () => {
    expect(summary('On p. 1 they write "as shown on page 9 and in Eq. (4) below".')).toEqual([
      ["quotation", "p. 1", "as shown on page 9 and in Eq. (4) below"],
    ]);
  });

  it("orders quotations, bare pages, equations, figures, then unanchored quotations, with lines", () => {
    const r = readDraft(
      'Fig. (2) and Eq. (1).\nPage 3 first. On p. 4 "some quoted words here".\n"no page for this one"',
    );
    expect(r.citations.map((c) => [c.kind, c.line])).toEqual([
      ["quotation", 2],
      ["page", 2],
      ["equation", 1],
      ["figure", 1],
      ["unanchored", 3],
    ]);
  });

  it("lists unsupported forms with their lines, outside quotations", () => {
    const r = readDraft('See pp. 3-4.\nAnd "Fig. 1 of the paper" then Fig. 2.');
    expect(r.unsupported.map((u) => [u.written, u.line])).toEqual([
      ["pp. 3-4", 1],
      ["Fig. 2", 2],
    ]);
  });
});
