import { describe, expect, it } from "vitest";
import { isEquationLabel, isFigureLabel, unsupportedEquationLabel } from "../../src/layout/labels.js";

describe("label forms", () => {
  it.each(["7", "2.1", "A.3", "26a", "A6", "S12", "2.14a", "4.10", "B.41"])(
    "knows the equation label %s",
    (label) => {
      expect(isEquationLabel(label)).toBe(true);
      expect(unsupportedEquationLabel(label)).toBeUndefined();
    },
  );

  it.each([
    ["1-3", "range"],
    ["1–3", "range"],
    ["2 to 4", "range"],
    ["1, 2", "list"],
    ["3 and 4", "list"],
    ["", "empty"],
    ["(3)", "parentheses"],
    ["(2.1", "parentheses"],
    [" 3", "spaces"],
    ["I", "form"],
    ["x", "form"],
    [".3", "form"],
    ["2019", "form"],
  ])("refuses %j as a %s", (label, what) => {
    expect(isEquationLabel(label)).toBe(false);
    expect(unsupportedEquationLabel(label)).toMatch(
      new RegExp(
        {
          range: "range",
          list: "list",
          empty: "empty",
          parentheses: "parentheses",
          spaces: "spaces",
          form: "not a form",
        }[what]!,
      ),
    );
  });

  it("knows figure labels as captions print them", () => {
    for (const label of ["3", "4.2", "S1", "A.1", "6.19"]) expect(isFigureLabel(label)).toBe(true);
    for (const label of ["", "III", "3-4", "(3)"]) expect(isFigureLabel(label)).toBe(false);
  });
});
