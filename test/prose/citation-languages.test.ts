import { describe, expect, it } from "vitest";
import { anchorName, findCitationForms, findUnsupportedForms } from "../../src/prose/citation-forms.js";
import { CITATION_LANGUAGES } from "../../src/prose/citation-words.js";
import { findQuotedSpans } from "../../src/prose/quotes.js";

function read(text: string) {
  const forms = findCitationForms(text);
  return {
    forms: forms.map((f) => [anchorName(f.anchor), f.written]),
    unsupported: findUnsupportedForms(text, forms).map((u) => u.written),
  };
}

describe("citation forms in other languages", () => {
  it("reads pages, equations and figures as German, Spanish, Italian, Polish and Russian drafts write them", () => {
    const r = read(
      "wie es heißt (S. 12), Seite 3, Gl. (19), Abb. (6); pág. 45, ec. (2); pag. 7, equazione (3); " +
        "s. 9, wzór (4), rys. (5); с. 11, ур. (8), рис. (2)",
    );
    expect(r.forms.map((f) => f[0])).toEqual([
      "p. 12",
      "p. 3",
      "Eq. (19)",
      "Fig. (6)",
      "p. 45",
      "Eq. (2)",
      "p. 7",
      "Eq. (3)",
      "p. 9",
      "Eq. (4)",
      "Fig. (5)",
      "p. 11",
      "Eq. (8)",
      "Fig. (2)",
    ]);
  });

  it("reads a Chinese page after its number and a figure run into the words before it", () => {
    expect(read("见第 7 页，如图 (3) 所示，式(2)").forms.map((f) => f[0])).toEqual([
      "p. 7",
      "Fig. (3)",
      "Eq. (2)",
    ]);
  });

  it("keeps the word-start rule in every language and lists look-alikes as unsupported", () => {
    // "Os. 3" is no "s. 3"; "Abb. 3" and "Gl. 7" without parentheses are not read, only listed.
    const r = read("Os. 3 und Abb. 3 und Gl. 7 und S. 12-14 in the U.S. 50 states");
    expect(r.forms).toEqual([]);
    expect(r.unsupported).toEqual(["Abb. 3", "Gl. 7", "S. 12-14"]);
  });

  it("does not read German 'vgl.' before a parenthesis as an equation", () => {
    expect(read("vgl. (Müller 2020)").forms).toEqual([]);
  });

  it("names a source for every language", () => {
    for (const row of CITATION_LANGUAGES) expect(row.source.length).toBeGreaterThan(0);
  });
});

describe("quotation marks of every language", () => {
  it("reads „…“ „…” ‚…‘ «…» »…« ‹…› ”…” 「…」 『…』 each closed by its own marks", () => {
    const draft =
      "„die Messung blieb stabil“ und „pomiar pozostał stabilny” und ‚eine kurze Messreihe‘; " +
      "«la mesure est restée stable» »die Messung blieb gut« ‹une autre mesure ici› " +
      "”mätningen förblev stabil” 「測定は安定していた状態である」 『二重の鉤括弧による引用文』";
    expect(findQuotedSpans(draft).map((s) => s.text)).toEqual([
      "die Messung blieb stabil",
      "pomiar pozostał stabilny",
      "eine kurze Messreihe",
      "la mesure est restée stable",
      "die Messung blieb gut",
      "une autre mesure ici",
      "mätningen förblev stabil",
      "測定は安定していた状態である",
      "二重の鉤括弧による引用文",
    ]);
  });

  it("closes a German quotation only on its own mark, not on an English closing one", () => {
    // „ closes on “ or ”; a « inside it is just a character.
    expect(findQuotedSpans("„er schrieb «so» und dann weiter“").map((s) => s.text)).toEqual([
      "er schrieb «so» und dann weiter",
    ]);
  });
});

describe("sentences in other languages", () => {
  it("keeps a quotation and its citation in one sentence across S., pág., s. and рис.", async () => {
    const { splitSentences } = await import("../../src/prose/sentences.js");
    const draft =
      "Sie schreiben „die Messung blieb stabil“ (S. 12). Piszą „pomiar pozostał stabilny” (s. 9). " +
      "他们写道「測定は安定していた状態である」（第 7 页）。下一句。";
    const spans = findQuotedSpans(draft);
    const sentences = splitSentences(draft, spans).map((s) => draft.slice(s.startUtf16, s.endUtf16));
    expect(sentences).toEqual([
      "Sie schreiben „die Messung blieb stabil“ (S. 12).",
      "Piszą „pomiar pozostał stabilny” (s. 9).",
      "他们写道「測定は安定していた状態である」（第 7 页）。",
      "下一句。",
    ]);
  });
});

describe("check-text on a German and a Russian draft", () => {
  it("checks „…“ with S. N and «…» with с. N against the pages of a babel document", async () => {
    const { checkText } = await import("../../src/checks/check-text.js");
    const { tempDir, fixture } = await import("../helpers/fixture-files.js");
    const { openContext } = await import("./support.js");
    const cache = tempDir();
    try {
      const context = await openContext(fixture("caption-languages"), cache.dir);
      const report = await checkText(
        context,
        "Sie schreiben „die Streuung blieb innerhalb der Toleranz“ (S. 1). " +
          "Sie schreiben auch „die Streuung blieb außerhalb der Toleranz“ (S. 1). " +
          "Авторы пишут «разброс оставался в пределах допуска» (с. 1), см. рис. (9).",
      );
      expect(report.citations.map((c) => [c.verdict, c.reason, c.anchor])).toEqual([
        ["PASS", "found", "p. 1"],
        ["FAIL", "absent", "p. 1"],
        ["FAIL", "wrong-page", "p. 1"],
        ["PASS", "found", "Fig. (9)"],
      ]);
    } finally {
      cache.remove();
    }
  });
});
