// A closing quote after the sentence's period (issue 37 item 5): `The authors note "… feedback
// controller." (p. 1).` where the page goes on "controller in Simchowitz" is the writer's
// punctuation set inside the closing mark, not the source's: check-text checks the words without it
// and says so. A quotation whose page has the `.` is found with it.
import { describe, expect, it } from "vitest";
import { checkText, writersPunctuation } from "../../src/checks/check-text.js";
import { checkContextFromRecord } from "../../src/checks/verify.js";
import { textPage } from "../helpers/page-text.js";

const context = checkContextFromRecord({
  sha256: "0".repeat(64),
  pageCount: 1,
  pages: [
    textPage(
      1,
      "We study the design of a feedback controller in Simchowitz et al. and its regret.\nThe rate was 3.5 percent in the first year, and the loss fell.",
    ),
  ],
});

function outcome(draft: string) {
  return checkText(context, draft).then((r) =>
    r.citations.map((c) => ({
      verdict: c.verdict,
      reason: c.reason,
      message: c.message,
      evidence: c.evidence,
    })),
  );
}

describe("a period or comma just inside the closing quote mark", () => {
  it("is the writer's punctuation where the page has none there: PASS, and the message says so", async () => {
    const [dot] = await outcome('The authors note "the design of a feedback controller." (p. 1).');
    expect([dot.verdict, dot.reason]).toEqual(["PASS", "found"]);
    expect(dot.message).toMatch(
      /; the closing `\.` inside the quotation marks is the writer's punctuation: the page has none there$/,
    );
    expect(dot.evidence.writersPunctuation).toBe(".");
    const [comma] = await outcome('They write "the design of a feedback controller," (p. 1), then stop.');
    expect([comma.verdict, comma.reason]).toEqual(["PASS", "found"]);
    expect(comma.evidence.writersPunctuation).toBe(",");
  });

  it("is the source's where the page has it: found with it, no note", async () => {
    const [r] = await outcome('On p. 1 they say "in the first year, and the loss fell."');
    expect([r.verdict, r.reason]).toEqual(["PASS", "found"]);
    expect(r.evidence.writersPunctuation).toBeUndefined();
  });

  it("never turns a wrong word into a PASS", async () => {
    const [word] = await outcome('On p. 1 "the design of a feedforward controller."');
    expect(word.verdict).toBe("FAIL");
    expect(word.message).toMatch(/was left out as the writer's punctuation$/);
  });

  it("is not the last dot of an ellipsis", () => {
    expect(writersPunctuation("feedback controller...")).toBeUndefined();
    expect(writersPunctuation("feedback controller\u2026")).toBeUndefined();
    expect(writersPunctuation("feedback controller .")).toBeUndefined();
    expect(writersPunctuation("feedback controller.")).toBe(".");
  });
});
