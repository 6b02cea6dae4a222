import { describe, expect, it } from "vitest";
import { findQuotedSpans, MAX_QUOTATION_CHARS, MIN_QUOTATION_CHARS } from "../../src/prose/quotes.js";

describe("quoted spans", () => {
  it("reads straight and curly double quotes, collapsing whitespace inside", () => {
    const spans = findQuotedSpans(
      'He wrote "a finite\n  set of nodes" and \u201ca curly quotation here\u201d.',
    );
    expect(spans.map((s) => [s.text, s.status])).toEqual([
      ["a finite set of nodes", "counted"],
      ["a curly quotation here", "counted"],
    ]);
    expect(spans[0].startUtf16).toBe(9);
  });

  it("counts 12 to 400 characters; shorter and longer spans are dropped", () => {
    const at = (n: number) => findQuotedSpans(`x "${"a".repeat(n)}" y`)[0];
    expect(MIN_QUOTATION_CHARS).toBe(12);
    expect(MAX_QUOTATION_CHARS).toBe(400);
    expect(at(11).status).toBe("too-short");
    expect(at(12).status).toBe("counted");
    expect(at(400).status).toBe("counted");
    expect(at(401).status).toBe("too-long");
  });

  it("counts characters as code points, not UTF-16 units", () => {
    const span = findQuotedSpans(`"${"\u{1d465}".repeat(12)}"`)[0];
    expect(span.chars).toBe(12);
    expect(span.status).toBe("counted");
  });

  it("never lets a stray quote mark swallow the next paragraph", () => {
    const spans = findQuotedSpans('A stray " mark here.\n\nNext paragraph has "a quotation of words" in it.');
    expect(spans.map((s) => s.text)).toEqual(["a quotation of words"]);
  });

  it("ignores single quotes", () => {
    expect(findQuotedSpans("the 'single quoted phrase here' stays prose")).toEqual([]);
  });
});
