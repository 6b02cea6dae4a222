// Script breaks from per-character arrays, without the engine.
import { describe, expect, it } from "vitest";
import { CHAR_FLAG_GENERATED } from "../../../src/document/model.js";
import { findScriptBreaks } from "../../../src/document/pdfium/script-breaks.js";

/** Per-character arrays: each character its size and foot (bottom); flagged ones generated. */
function page(chars: { c: string; size: number; foot: number; generated?: boolean }[]) {
  const n = chars.length;
  const units = new Uint16Array(n);
  const glyphBoxes = new Float32Array(n * 4);
  const fontSizes = new Float32Array(n);
  const flags = new Uint8Array(n);
  chars.forEach((ch, i) => {
    units[i] = ch.c.charCodeAt(0);
    glyphBoxes.set([i * 5, ch.foot, i * 5 + 5, ch.foot + ch.size], i * 4);
    fontSizes[i] = ch.size;
    flags[i] = ch.generated ? CHAR_FLAG_GENERATED : 0;
  });
  return { units, n, glyphBoxes, fontSizes, flags };
}

const run = (text: string, size: number, foot: number) => [...text].map((c) => ({ c, size, foot }));

describe("findScriptBreaks", () => {
  it("breaks where a raised, smaller mark meets ordinary text on either side", () => {
    const p = page([...run("end.", 10, 100), ...run("1", 6, 105), ...run("Next", 10, 100)]);
    expect(findScriptBreaks(p.units, p.n, p.glyphBoxes, p.fontSizes, p.flags)).toEqual([4, 5]);
  });

  it("does not break for a smaller run on the baseline, nor one only slightly smaller", () => {
    const sub = page([...run("H", 10, 100), ...run("2", 6, 99), ...run("O", 10, 100)]);
    expect(findScriptBreaks(sub.units, sub.n, sub.glyphBoxes, sub.fontSizes, sub.flags)).toEqual([]);
    const near = page([...run("ab", 10, 100), ...run("c", 9, 105)]);
    expect(findScriptBreaks(near.units, near.n, near.glyphBoxes, near.fontSizes, near.flags)).toEqual([]);
  });

  it("does not break next to a space, a line break or a generated character", () => {
    const p = page([
      ...run("a ", 10, 100),
      ...run("1", 6, 105),
      { c: "\n", size: 0, foot: 0, generated: true },
      ...run("2", 6, 105),
      ...run("b", 10, 100),
    ]);
    expect(findScriptBreaks(p.units, p.n, p.glyphBoxes, p.fontSizes, p.flags)).toEqual([5]);
  });
});
