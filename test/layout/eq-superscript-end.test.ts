// Superscripts in parentheses ending lines of running text (`w^{(41)}` before a forced line break),
// in the body's size and a smaller one, are refused as superscripts; the labels of displays whose
// formulas end in such superscripts are still accepted.
import { describe, expect, it } from "vitest";
import { anchorsOf } from "./support.js";

describe("superscripts ending a line", () => {
  it("refuses them as superscripts and keeps the displays' labels", async () => {
    const record = await anchorsOf("eq-superscript-end");
    expect(record.equations.map((e) => e.label)).toEqual(["1", "2", "3"]);
    const reasons = new Map(record.rejectedEquationCandidates.map((c) => [c.label, c.reasons]));
    // At the text block's edge, nothing but the raise and the size tells them from labels.
    expect(reasons.get("41")).toEqual(["superscript"]);
    expect(reasons.get("44")).toEqual(["superscript"]);
    for (const label of ["42", "43"]) expect(reasons.get(label)).toContain("superscript");
  });
});
