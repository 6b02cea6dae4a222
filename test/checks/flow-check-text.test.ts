import { describe, expect, it } from "vitest";
import { checkTextFlow } from "../../src/checks/flow-check-text.js";
import { findSectionForms } from "../../src/prose/section-forms.js";
import { readFlow } from "../helpers/flow-source.js";

const SOURCE = [
  "# 1 Intro",
  "",
  "The study of river deltas began long ago.",
  "",
  "## 1.1 Data",
  "",
  "Samples were taken from fourteen sites.",
  "",
  "# 2 Materials and Methods",
  "",
  "We fitted a linear model to every site.",
].join("\n");

describe("section citation forms in a draft", () => {
  it('§ N, Section N, Sec. N, Sect. N and section "Name"; not a paragraph sign alone or a section of text', () => {
    const forms = findSectionForms(
      'See § 3.2, §§ 4, Section 2, sec. 1.1, Sect. A.2 and section "Data sources"; the section was long.',
    );
    expect(forms.map((f) => f.section)).toEqual(["3.2", "4", "2", "1.1", "A.2", "Data sources"]);
  });
});

describe("check-text on a flow source", () => {
  it("each quotation in the section its sentence names, else in the whole text", async () => {
    const doc = await readFlow("markdown", SOURCE);
    const report = checkTextFlow(
      doc,
      [
        'As § 1.1 shows, "Samples were taken from fourteen sites".',
        'Section 2 reports "We fitted a linear model to every site".',
        'But Sec. 1.1 says "We fitted a linear model to every site".',
        'In section "Materials and Methods" they write "The study of river deltas began".',
        '"The study of river deltas began long ago." (§ 1).',
        'Somewhere it reads "the study of river deltas began long ago".',
        'And "the study of river lakes began long ago" nowhere.',
        'A page, p. 4, has "Samples were taken from fourteen sites".',
      ].join("\n"),
    );
    expect(report.citations.map((c) => [c.anchor, c.verdict, c.reason])).toEqual([
      ["p. 4", "FAIL", "no-such-page"],
      ["§ 1.1", "PASS", "found"],
      ["§ 2", "PASS", "found"],
      ["§ 1.1", "FAIL", "wrong-section"],
      ["§ Materials and Methods", "FAIL", "wrong-section"],
      ["§ 1", "PASS", "found"],
      [null, "PASS", "found"],
      [null, "FAIL", "absent"],
    ]);
    expect(report.summary).toMatchObject({ citations: 8, PASS: 4, FAIL: 4 });
    expect(report.citations[3].message).toContain('the words are under "2 Materials and Methods"');
  });
});
