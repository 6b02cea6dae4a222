/** The report says what a verdict means in the record's own terms: a label is not "words on the page". */
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/checks/result.js";
import { REASON_MEANINGS, reasonMeaning } from "../../src/checks/verdicts.js";
import { renderReportHtml } from "../../src/report/html.js";

function section(result: CheckResult): string {
  const html = renderReportHtml({
    pdf: "paper.pdf",
    document: { sha256: "0".repeat(64), pages: 3 },
    sections: [{ result, crops: [], cropErrors: [] }],
  });
  return html.slice(html.indexOf('<p class="reason">'), html.indexOf('<p class="message">'));
}

describe("reason wording per record kind", () => {
  it("an equation PASS means the label is printed beside a displayed equation", () => {
    const line = section({
      kind: "equation",
      verdict: "PASS",
      reason: "found",
      message: "equation (2) is printed beside a displayed equation on page 2",
      evidence: { label: "2" },
    });
    expect(line).toContain("the label is printed beside a displayed equation");
    expect(line).not.toContain("the words are on the page");
  });

  it("a figure PASS and FAIL speak of captions, a quotation PASS of words, a page pointer of the page", () => {
    expect(reasonMeaning("figure", "found")).toBe("a figure caption carries the label");
    expect(reasonMeaning("figure", "absent")).toMatch(/^no figure caption carries the label/);
    expect(reasonMeaning("quotation", "found")).toBe(REASON_MEANINGS.found);
    expect(reasonMeaning("quotation", "absent")).toBe(REASON_MEANINGS.absent);
    expect(reasonMeaning("page", "no-quotation")).toMatch(/^a page pointer alone/);
    const line = section({
      kind: "figure",
      verdict: "PASS",
      reason: "found",
      message: "a figure caption carries the label 3",
      evidence: { label: "3" },
    });
    expect(line).toContain("a figure caption carries the label");
  });
});
