// Bad input for the equation rules (fixture eq-bad-input, built from fixtures/src): a page of 10,000
// parenthesised numbers, and a display whose glyphs map to nonsense code points. Each gets a
// verdict, never a crash or a hang.
import { describe, expect, it } from "vitest";
import { checkEquation } from "../../src/checks/equation.js";
import { anchorsOf } from "./support.js";

describe("equation rules on bad input", () => {
  it("decides every one of 10,000 parenthesised numbers on one page, and accepts none", async () => {
    const r = await anchorsOf("eq-bad-input");
    const page1 = r.rejectedEquationCandidates.filter((c) => c.page === 1);
    expect(page1.length).toBe(10_000);
    expect(r.equations.filter((e) => e.page === 1)).toEqual([]);
    const verdict = checkEquation(r, { label: "500" });
    expect(verdict.verdict).toBe("FAIL");
    expect(verdict.reason).toBe("equation-unresolved");
  });

  it("gives a verdict for a label beside text in nonsense code points", async () => {
    const r = await anchorsOf("eq-bad-input");
    const verdict = checkEquation(r, { label: "1" });
    expect(["PASS", "FAIL"]).toContain(verdict.verdict);
  });
});
