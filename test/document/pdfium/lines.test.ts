// Lines from text and per-character boxes, without the engine.
import { describe, expect, it } from "vitest";
import { buildLines } from "../../../src/document/pdfium/lines.js";

/** Boxes for `text`, each character 5 wide on baseline `y` of its line; NaN for generated characters. */
function boxesFor(lines: { text: string; y: number; size: number; generatedAt?: number[] }[]) {
  const text = lines.map((l) => l.text).join("\n");
  const glyphBoxes = new Float32Array(text.length * 4).fill(Number.NaN);
  const fontSizes = new Float32Array(text.length);
  let at = 0;
  for (const line of lines) {
    for (let i = 0; i < line.text.length; i++, at++) {
      if (line.generatedAt?.includes(i)) continue;
      glyphBoxes.set([10 + i * 5, line.y, 15 + i * 5, line.y + line.size], at * 4);
      fontSizes[at] = line.size;
    }
    at++; // the line break, generated
  }
  return { text, glyphBoxes, fontSizes };
}

describe("buildLines", () => {
  it("gives each line its offsets, the union of its boxes and its font size", () => {
    const { text, glyphBoxes, fontSizes } = boxesFor([
      { text: "abc", y: 700, size: 10 },
      { text: "de", y: 680, size: 12 },
    ]);
    expect(buildLines(text, glyphBoxes, fontSizes)).toEqual([
      { startUtf16: 0, endUtf16: 3, box: { left: 10, bottom: 700, right: 25, top: 710 }, fontSize: 10 },
      { startUtf16: 4, endUtf16: 6, box: { left: 10, bottom: 680, right: 20, top: 692 }, fontSize: 12 },
    ]);
  });

  it("leaves generated characters out of the box and takes the most common size", () => {
    const { text, glyphBoxes, fontSizes } = boxesFor([{ text: "ab cd", y: 100, size: 9, generatedAt: [2] }]);
    fontSizes[0] = 6.04; // one small character among four of 9 pt
    const [line] = buildLines(text, glyphBoxes, fontSizes);
    expect(line.box).toEqual({ left: 10, bottom: 100, right: 35, top: 109 });
    expect(line.fontSize).toBe(9);
  });

  it("names a line's font only when nearly all its drawn characters are set in it", () => {
    const { text, glyphBoxes, fontSizes } = boxesFor([
      { text: "Heading line", y: 700, size: 10 },
      { text: "Bold run-in then body text", y: 680, size: 10 },
      { text: "ab", y: 660, size: 10, generatedAt: [1] },
    ]);
    const fonts = new Int16Array(text.length).fill(0);
    fonts.fill(1, 0, 12); // the first line wholly in font 1
    fonts.fill(1, 13, 22); // "Bold run-" in font 1, the rest of its line in font 0
    fonts[text.length - 1] = 1; // a generated character counts for nothing
    expect(buildLines(text, glyphBoxes, fontSizes, fonts).map((l) => l.font)).toEqual([1, -1, 0]);
    expect(buildLines(text, glyphBoxes, fontSizes)[0]).not.toHaveProperty("font");
  });

  it("gives an empty line a zero box and size", () => {
    const { glyphBoxes, fontSizes } = boxesFor([{ text: "", y: 0, size: 0 }]);
    expect(buildLines("", glyphBoxes, fontSizes)).toEqual([
      { startUtf16: 0, endUtf16: 0, box: { left: 0, bottom: 0, right: 0, top: 0 }, fontSize: 0 },
    ]);
  });
});
