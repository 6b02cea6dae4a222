import { describe, expect, it } from "vitest";
import { draftKind, latexAsProse, readDraftCitations } from "../../src/prose/bib-citations.js";
import { locatorName, readLocator } from "../../src/prose/locators.js";

function read(text: string, kind?: "markdown" | "latex" | "text") {
  return readDraftCitations(text, kind).citations.map((c) => [
    c.group.style,
    c.ref.key,
    c.ref.locator ? locatorName(c.ref.locator) : (c.ref.note ?? null),
    c.quote?.text ?? null,
  ]);
}

const Q = "words that are quoted here";

describe("bibliographic citations in a draft", () => {
  it.each([
    [`"${Q}" [@smith2024].`, [["pandoc", "smith2024", null, Q]]],
    [`"${Q}" [@smith2024, p. 7].`, [["pandoc", "smith2024", "p. 7", Q]]],
    [`"${Q}" [@smith2024, pp. 7-8].`, [["pandoc", "smith2024", "pp. 7-8", Q]]],
    [
      `"${Q}" [see @smith2024, p. 7; @other, sec. 2].`,
      [
        ["pandoc", "smith2024", "p. 7", Q],
        ["pandoc", "other", "sec. 2", null],
      ],
    ],
    [`@smith2024 [p. 7] says "${Q}".`, [["pandoc", "smith2024", "p. 7", Q]]],
    [`"${Q}" [-@smith2024, p. 7].`, [["pandoc", "smith2024", "p. 7", Q]]],
    [`"${Q}" [@{odd key}, 12].`, [["pandoc", "odd key", "p. 12", Q]]],
  ])("pandoc: %s", (text, expected) => {
    expect(read(text, "markdown")).toEqual(expected);
  });

  it("pandoc: an e-mail address is no citation, and a Markdown link with no key is none", () => {
    expect(
      read("Write to ann@example.org or see [the page](https://x.org) and [1](#a).", "markdown"),
    ).toEqual([]);
  });

  it.each([
    [`\\cite[p.~7]{smith2024} wrote \`\`${Q}''.`, [["latex", "smith2024", "p. 7", Q]]],
    [`\\citep[see][p.~7]{smith2024} wrote \`\`${Q}''.`, [["latex", "smith2024", "p. 7", Q]]],
    [`\\parencite[7]{smith2024} wrote \`\`${Q}''.`, [["latex", "smith2024", "p. 7", Q]]],
    [`\\textcite[pp.~7--9]{smith2024} wrote \\enquote{${Q}}.`, [["latex", "smith2024", "pp. 7-9", Q]]],
    [`\\autocite[\\S~2]{smith2024}.`, [["latex", "smith2024", "sec. 2", null]]],
    [`\\footcite[eq.~(3.1)]{smith2024}.`, [["latex", "smith2024", "Eq. (3.1)", null]]],
    [`\\citet*[fig.~2]{smith2024}.`, [["latex", "smith2024", "Fig. (2)", null]]],
    [
      `\\cite{a, b} wrote \`\`${Q}''.`,
      [
        ["latex", "a", null, Q],
        ["latex", "b", null, null],
      ],
    ],
    [
      `\\parencites[3]{a}[see][sec.~2]{b}.`,
      [
        ["latex", "a", "p. 3", null],
        ["latex", "b", "sec. 2", null],
      ],
    ],
    [`\\cite[vol.~2]{a}.`, [["latex", "a", "vol. 2", null]]],
  ])("LaTeX: %s", (text, expected) => {
    expect(read(text, "latex")).toEqual(expected);
  });

  it("LaTeX: a citation in a comment is not read; quotes keep their offsets", () => {
    expect(read("Text. % \\cite{hidden}\n\\cite{shown}.", "latex").map((r) => r[1])).toEqual(["shown"]);
    const tex = "a ``quoted'' b";
    expect(latexAsProse(tex)).toHaveLength(tex.length);
  });

  it.each([
    [`"${Q}" [3, p. 7].`, [["numeric", "[3]", "p. 7", Q]]],
    [
      "As shown [3, 5].",
      [
        ["numeric", "[3]", null, null],
        ["numeric", "[5]", null, null],
      ],
    ],
    [
      "As shown [2-4].",
      [
        ["numeric", "[2]", null, null],
        ["numeric", "[3]", null, null],
        ["numeric", "[4]", null, null],
      ],
    ],
    ["An interval [0, 1] and [1, 2.5] are not citations.", []],
    [
      "In math $x \\in [1, 2]$ and $[3]$ nothing is cited; it costs $5 and $6 [4].",
      [["numeric", "[4]", null, null]],
    ],
  ])("numeric: %s", (text, expected) => {
    expect(read(text, "markdown")).toEqual(expected);
  });

  it.each([
    [`"${Q}" (Smith 2024, p. 7).`, [["author-year", "Smith 2024", "p. 7", Q]]],
    [`Smith (2024, p. 7) wrote "${Q}".`, [["author-year", "Smith 2024", "p. 7", Q]]],
    [`"${Q}" (Smith & Jones 2024, p. 7).`, [["author-year", "Smith & Jones 2024", "p. 7", Q]]],
    [`"${Q}" (Smith et al., 2024, p. 7).`, [["author-year", "Smith et al. 2024", "p. 7", Q]]],
    [`"${Q}" (Smith 2024a, p. 7).`, [["author-year", "Smith 2024a", "p. 7", Q]]],
    [`"${Q}" (see van der Berg 2020, 12).`, [["author-year", "van der Berg 2020", "p. 12", Q]]],
    [
      "Shown before (Smith 2024; Müller 2019).",
      [
        ["author-year", "Smith 2024", null, null],
        ["author-year", "Müller 2019", null, null],
      ],
    ],
  ])("author-year: %s", (text, expected) => {
    expect(read(text, "text")).toEqual(expected);
  });

  it("a quotation belongs to the citation right after it, else the nearest before it in its sentence", () => {
    const text = `[@a, p. 1] and [@b, p. 2] say "${Q}". Then "${Q} again" [@c, p. 3] and [@d, p. 4].`;
    expect(read(text, "markdown").filter((r) => r[3] !== null)).toEqual([
      ["pandoc", "b", "p. 2", Q],
      ["pandoc", "c", "p. 3", `${Q} again`],
    ]);
  });

  it("a quotation whose sentence cites nothing is unanchored; a citation inside a quotation is not read", () => {
    const reading = readDraftCitations(`They said "${Q} [@inside, p. 1]". Next.`, "markdown");
    expect(reading.citations).toEqual([]);
    expect(reading.unanchored.map((u) => [u.line, u.column])).toEqual([[1, 11]]);
  });

  it("gives each citation its line and UTF-16 column", () => {
    const c = readDraftCitations(`First line.\nAnd 𝑥 then [@k, p. 2].`, "markdown").citations[0];
    expect([c.line, c.column]).toEqual([2, 13]);
  });

  it("reads the draft's kind by extension, else by content", () => {
    expect(draftKind("x", "a.tex")).toBe("latex");
    expect(draftKind("x", "a.md")).toBe("markdown");
    expect(draftKind("\\section{A} \\cite{b}")).toBe("latex");
    expect(draftKind("see [@a]")).toBe("markdown");
    expect(draftKind("plain (Smith 2020)")).toBe("text");
  });

  it("reads locators and leaves other notes as written", () => {
    expect(readLocator("p.~7")).toEqual({ kind: "page", page: 7, digits: "7" });
    expect(readLocator("pp. 7–7")).toEqual({ kind: "page", page: 7, digits: "7" });
    expect(readLocator("ch. 4")).toEqual({ kind: "section", label: "4" });
    expect(readLocator("p. vii")).toBeUndefined();
    expect(readLocator("")).toBeUndefined();
  });
});

/** Each cited work's key and locator. */
function keys(text: string, kind: "markdown" | "latex") {
  return read(text, kind).map(([, key, locator]) => [key, locator]);
}

describe("what pandoc's citeproc writes into a draft", () => {
  it("names with a serial comma, escaped brackets, a prenote, LaTeX's braced brackets", () => {
    expect(keys("They say so (Müller, Li, and Smith 2003, 1).", "markdown")).toEqual([
      ["Müller & Li & Smith 2003", "p. 1"],
    ]);
    expect(keys("It is so \\[3, p. 7\\] and \\[see 4\\].", "markdown")).toEqual([
      ["[3]", "p. 7"],
      ["[4]", null],
    ]);
    expect(keys("It is so {[}3, p.~7{]} but not \\\\[2pt] nor \\item[1] here.", "latex")).toEqual([
      ["[3]", "p. 7"],
    ]);
  });

  it("its reference list: quoted titles are no quotations; its numbers name the keys", () => {
    const md = [
      'A "quoted run of five words here" \\[2, p. 1\\].',
      "",
      "::: {#refs .references .csl-bib-body}",
      "::: {#ref-zeta .csl-entry}",
      '[\\[1\\] ]{.csl-left-margin}[Ann Zeta, "A title in quotes here," 2001.]{.csl-right-inline}',
      ":::",
      "",
      "::: {#ref-alpha .csl-entry}",
      '[\\[2\\] ]{.csl-left-margin}[Bo Alpha, "Another title in quotes," 2002.]{.csl-right-inline}',
      ":::",
      ":::",
      "After the list.",
    ].join("\n");
    const reading = readDraftCitations(md, "markdown");
    expect(reading.unanchored).toEqual([]);
    expect(reading.citations.map((c) => c.quote?.text)).toEqual(["quoted run of five words here"]);
    expect([...reading.numbered]).toEqual([
      [1, "zeta"],
      [2, "alpha"],
    ]);
  });
});
