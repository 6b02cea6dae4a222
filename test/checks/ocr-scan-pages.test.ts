// Which pages of an OCR-layered document are read by OCR for an equation label: those whose layer
// leaves room for a display or prints the label as a display's label stands. An OCR layer's words
// come in the order its engine wrote them, so a label asked for counts anywhere in a line printed
// whole; a page that only has it in running text without brackets, or another label, is not read.
import { describe, expect, it } from "vitest";
import { scanPagesForLabels } from "../../src/checks/ocr-equations.js";
import type { PageText } from "../../src/document/model.js";
import { textPage } from "../helpers/page-text.js";

/** An OCR-layered page of evenly spaced lines (no room left for a display), one line per entry. */
function layered(page: number, lines: string[]): PageText {
  return textPage(page, lines.join("\n"), {
    lineBox: (i) => ({ left: 72, bottom: 700 - i * 14, right: 540, top: 710 - i * 14 }),
    with: { fonts: ["GlyphLessFont"], textLayer: "ocr-layer", largestImagePixels: 1700 * 2200 },
  });
}

const prose = "the sample is drawn without replacement from the same population";

describe("pages of an OCR layer read for an equation label", () => {
  it("reads a page whose layer has the label asked for printed whole anywhere in a line", () => {
    // A left-numbered display the layer wrote out of order: the label in the middle of its line.
    const page = layered(7, [prose, prose, "eM dt ifx (5.6) wo = {4 a ir> 0.", prose, prose]);
    expect(scanPagesForLabels([page], ["5.6"])).toEqual([7]);
    // At a line's start or end it counted before, and still does.
    expect(scanPagesForLabels([layered(7, [prose, `${prose} (5.6)`, prose, prose])], ["5.6"])).toEqual([7]);
  });

  it("leaves a page alone that holds another label, or the label without its brackets", () => {
    const other = layered(7, [prose, prose, "eM dt ifx (5.7) wo = {4 a ir> 0.", prose, prose]);
    expect(scanPagesForLabels([other], ["5.6"])).toEqual([]);
    const bare = layered(7, [prose, prose, "as equation 5.6 shows, the sample is drawn", prose, prose]);
    expect(scanPagesForLabels([bare], ["5.6"])).toEqual([]);
    // Any label (the anchors listing) still asks for one where a display's label stands.
    expect(scanPagesForLabels([other], "any")).toEqual([]);
  });
});
