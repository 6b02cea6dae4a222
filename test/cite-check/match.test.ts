// Containment over synthetic text layers: every non-whitespace unit's own box must be inside the
// citation box (tolerance 0.0001 pt); a union of partial boxes never proves support.
import { describe, expect, it } from "vitest";
import { evaluateOnLayer } from "../../src/checks/cite-check/evaluate.js";
import { findQuote, statusOf } from "../../src/checks/cite-check/match.js";
import type { Citation } from "../../src/checks/cite-check/request.js";
import type { TextLayer } from "../../src/checks/cite-check/text-layer.js";

/** A layer where unit i sits in a 10 x 10 cell at x = 10 i on one line; `gaps` units have no box. */
function layer(text: string, gaps: number[] = []): TextLayer {
  const boxes = new Float32Array(text.length * 4);
  for (let i = 0; i < text.length; i++) {
    boxes.set(
      gaps.includes(i) ? [Number.NaN, Number.NaN, Number.NaN, Number.NaN] : [10 * i, 0, 10 * i + 10, 10],
      i * 4,
    );
  }
  return { kind: "native", text, boxes, groups: new Int32Array(text.length), level: "glyph" };
}

const citation = (quote: string, left: number, right: number): Citation => ({
  quote,
  page: 1,
  bounding_box: { left, bottom: 0, right, top: 10 },
});

describe("containment", () => {
  it("accepts a box equal to the glyph boxes and one within the tolerance, not one past it", () => {
    const l = layer("abc");
    expect(statusOf(l, 0, 3, { left: 0, bottom: 0, right: 30, top: 10 })).toBe("inside");
    expect(statusOf(l, 0, 3, { left: 0.00009, bottom: 0.00009, right: 29.99991, top: 9.99991 })).toBe(
      "inside",
    );
    expect(statusOf(l, 0, 3, { left: 0, bottom: 0, right: 29.9998, top: 10 })).toBe("outside");
    expect(statusOf(l, 0, 3, { left: 0, bottom: 0.0002, right: 30, top: 10 })).toBe("outside");
  });

  it("ignores whitespace units and their boxes", () => {
    const l = layer("a b");
    // The space's cell (10-20) lies outside the box; only a and b count.
    l.boxes.set([500, 500, 600, 600], 4);
    expect(statusOf(l, 0, 3, { left: 0, bottom: 0, right: 30, top: 10 })).toBe("inside");
  });

  it("never lets a union of partial boxes prove support", () => {
    // Each glyph's box straddles the citation box's right edge: the union covers the region, no box is inside.
    const l = layer("ab");
    expect(statusOf(l, 0, 2, { left: 0, bottom: 0, right: 15, top: 10 })).toBe("outside");
    expect(evaluateOnLayer(l, citation("ab", 0, 15), "none").reason).toBe("outside_box");
  });

  it("is undecided when a character has no box and none is outside", () => {
    const l = layer("abc", [1]);
    expect(statusOf(l, 0, 3, { left: 0, bottom: 0, right: 30, top: 10 })).toBe("undecided");
    expect(evaluateOnLayer(l, citation("abc", 0, 30), "none").reason).toBe("geometry_missing");
    // One character known to be outside decides, missing boxes or not.
    expect(statusOf(l, 0, 3, { left: 0, bottom: 0, right: 25, top: 10 })).toBe("outside");
  });
});

describe("matching", () => {
  it("is case-sensitive under both profiles", () => {
    const l = layer("The Cat sat");
    expect(evaluateOnLayer(l, citation("the Cat", 0, 200), "none").reason).toBe("not_on_page");
    expect(evaluateOnLayer(l, citation("the Cat", 0, 200), "whitespace_v1").reason).toBe("not_on_page");
  });

  it("prefers exact matches and falls back to whitespace_v1 only when asked", () => {
    const l = layer("one\ntwo  three");
    expect(evaluateOnLayer(l, citation("one two three", 0, 200), "none").reason).toBe("not_on_page");
    const normalised = evaluateOnLayer(l, citation("one two three", 0, 200), "whitespace_v1");
    expect(normalised.reason).toBe("normalized_in_box");
    expect(normalised.locations[0].text).toBe("one\ntwo  three");
    expect(evaluateOnLayer(l, citation("one\ntwo", 0, 200), "whitespace_v1").reason).toBe("exact_in_box");
  });

  it("finds overlapping occurrences and maps normalised matches to original offsets", () => {
    const l = layer("aaa");
    expect(
      findQuote(l, "aa", "none", { left: 0, bottom: 0, right: 30, top: 10 }).map((o) => o.startUtf16),
    ).toEqual([0, 1]);
    const w = layer("x  y x\ny");
    const found = findQuote(w, " x y ", "whitespace_v1", { left: 0, bottom: 0, right: 100, top: 10 });
    expect(found.map((o) => [o.startUtf16, o.endUtf16])).toEqual([
      [0, 4],
      [5, 8],
    ]);
  });

  it("reports at most eight supported locations, all of them inside", () => {
    const l = layer("ab ".repeat(12));
    const outcome = evaluateOnLayer(l, citation("ab", 0, 1000), "none");
    expect(outcome.reason).toBe("exact_in_box");
    expect(outcome.locations).toHaveLength(8);
    expect(outcome.occurrences).toBe(12);
    const partial = evaluateOnLayer(l, citation("ab", 0, 60), "none");
    expect(partial.locations.map((x) => x.start_utf16)).toEqual([0, 3]);
  });

  it("tells an occurrence outside the box from a quote that is not on the page", () => {
    const l = layer("abc def");
    expect(evaluateOnLayer(l, citation("def", 0, 30), "none").reason).toBe("outside_box");
    expect(evaluateOnLayer(l, citation("xyz", 0, 300), "none").reason).toBe("not_on_page");
  });
});
