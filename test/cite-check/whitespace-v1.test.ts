// The whitespace_v1 profile: whitespace runs collapse to one space, ends trimmed, nothing else
// changes; every normalised unit maps back to the original.
import { describe, expect, it } from "vitest";
import { isUnicodeWhitespace, whitespaceV1 } from "../../src/text/whitespace-v1.js";

describe("whitespace_v1", () => {
  it("collapses runs of Unicode whitespace to one ASCII space and trims the ends", () => {
    const original = "  a\u00a0\u2003b\n\n\tc \u3000";
    const n = whitespaceV1(original);
    expect(n.text).toBe("a b c");
    // The space between a and b stands for the whole run.
    expect(n.startUtf16[1]).toBe(3);
    expect(n.endUtf16[1]).toBe(5);
    expect(original.slice(n.startUtf16[2], n.endUtf16[2])).toBe("b");
    expect(original.slice(n.startUtf16[3], n.endUtf16[3])).toBe("\n\n\t");
  });

  it("changes nothing but whitespace: case, ligatures, hyphens, quotes and dashes stay", () => {
    const original = "Eﬃcient — “Quoted” co-\nop";
    expect(whitespaceV1(original).text).toBe("Eﬃcient — “Quoted” co- op");
  });

  it("keeps astral characters as two units, each mapped to its own unit", () => {
    const n = whitespaceV1(" 𝑥 y");
    expect(n.text).toBe("𝑥 y");
    expect(Array.from(n.startUtf16)).toEqual([1, 2, 3, 4]);
    expect(Array.from(n.endUtf16)).toEqual([2, 3, 4, 5]);
  });

  it("follows the White_Space property (NEL yes, zero-width space and BOM no)", () => {
    expect(isUnicodeWhitespace(0x85)).toBe(true);
    expect(isUnicodeWhitespace(0x2028)).toBe(true);
    expect(isUnicodeWhitespace(0x200b)).toBe(false);
    expect(isUnicodeWhitespace(0xfeff)).toBe(false);
    for (let c = 0; c < 0x3001; c++) {
      expect(isUnicodeWhitespace(c), `U+${c.toString(16)}`).toBe(
        /^\p{White_Space}$/u.test(String.fromCharCode(c)),
      );
    }
  });

  it("gives an empty text for whitespace only", () => {
    const n = whitespaceV1(" \n\t ");
    expect(n.text).toBe("");
    expect(n.startUtf16.length).toBe(0);
  });
});
