import { describe, expect, it } from "vitest";
import { anchorName, findCitationForms, findUnsupportedForms } from "../../src/prose/citation-forms.js";

function read(text: string) {
  const forms = findCitationForms(text);
  return {
    forms: forms.map((f) => [anchorName(f.anchor), f.written]),
    unsupported: findUnsupportedForms(text, forms).map((u) => u.written),
  };
}

describe("the six citation forms", () => {
  it("reads p. N, page N, Eq. (L), equation (L), Fig. (L), figure (L)", () => {
    expect(read("p. 3, page 4, Eq. (2.1), equation (A6), Fig. (3), figure (4.2)").forms).toEqual([
      ["p. 3", "p. 3"],
      ["p. 4", "page 4"],
      ["Eq. (2.1)", "Eq. (2.1)"],
      ["Eq. (A6)", "equation (A6)"],
      ["Fig. (3)", "Fig. (3)"],
      ["Fig. (4.2)", "figure (4.2)"],
    ]);
  });

  it("reads them in any case and with or without the period", () => {
    expect(
      read("P 7, PAGE 8, eq (26a), EQUATION (1), FIG (2), Figure(5), p.9").forms.map((f) => f[0]),
    ).toEqual(["p. 7", "p. 8", "Eq. (26a)", "Eq. (1)", "Fig. (2)", "Fig. (5)", "p. 9"]);
  });

  it("lists look-alikes as unsupported and never reads them", () => {
    const r = read("pp. 3-4, Eq. 7, Fig. 1, pages 2-3, p. 5-6, Eqs. (1)-(2), Figure 3, equation 4");
    expect(r.forms).toEqual([]);
    expect(r.unsupported).toEqual([
      "pp. 3-4",
      "Eq. 7",
      "Fig. 1",
      "pages 2-3",
      "p. 5-6",
      "Eqs. (1)-(2)",
      "Figure 3",
      "equation 4",
    ]);
  });

  it("does not read forms inside words or parentheses without a digit", () => {
    const r = read("the group p4, freq. (3), setup. 3 times, equation (see below), app. 2");
    expect(r.forms).toEqual([]);
  });

  it("reads a page of any number of digits, so the check can say the page does not exist", () => {
    expect(read("p. 1234567890 and page 98765432109876").forms).toEqual([
      ["p. 1234567890", "p. 1234567890"],
      ["p. 98765432109876", "page 98765432109876"],
    ]);
    const [form] = findCitationForms("see p. 000123456789012345678901234");
    expect(form.anchor).toEqual({
      kind: "page",
      page: Number("123456789012345678901234"),
      digits: "123456789012345678901234",
    });
    expect(anchorName(form.anchor)).toBe("p. 123456789012345678901234");
  });

  it("passes unusual labels through to the check, which judges their form", () => {
    expect(read("Eq. (1-3) and Eq. ( 5 )").forms).toEqual([
      ["Eq. (1-3)", "Eq. (1-3)"],
      ["Eq. (5)", "Eq. ( 5 )"],
    ]);
  });
});
