// Bad input for the caption rules: a caption line of 100,000 characters, and a line holding
// thousands of caption-like tokens. Each gets a verdict, never a crash or a hang.
import { describe, expect, it } from "vitest";
import { checkFigure } from "../../src/checks/figure.js";
import { documentAnchors, openForAnchors } from "../../src/layout/anchors.js";
import { sha256Hex } from "../../src/source/file.js";
import { escapePdfString, pdfOfContents } from "../helpers/synthetic-pdf.js";

function source(bytes: Uint8Array, origin: string) {
  return { bytes, sha256: sha256Hex(bytes), origin };
}

/** A plot (a framed path) with a caption under it whose one text line is `caption`. */
function captionPage(caption: string, size: number): string {
  return [
    "1 w 100 500 300 200 re S 110 520 m 200 650 l 380 560 l S",
    `BT /F1 ${size} Tf 100 480 Td (${escapePdfString(caption)}) Tj ET`,
  ].join("\n");
}

describe("caption rules on bad input", () => {
  it("decides a caption line of 100,000 characters", async () => {
    const long = `Figure 1: ${"a very long caption ".repeat(5000)}`.slice(0, 100_000);
    expect(long.length).toBe(100_000);
    const doc = await openForAnchors(source(pdfOfContents([captionPage(long, 1)]), "long-caption.pdf"), {
      noCache: true,
    });
    const anchors = await documentAnchors(doc);
    const verdict = checkFigure(anchors, { label: "1" });
    expect(["PASS", "FAIL"]).toContain(verdict.verdict);
    expect(checkFigure(anchors, { label: "2" }).verdict).toBe("FAIL");
  });

  it("decides a line of thousands of caption-like tokens", async () => {
    const tokens = Array.from({ length: 8000 }, (_, i) => `Figure ${(i % 900) + 1}. x`).join(" ");
    const doc = await openForAnchors(source(pdfOfContents([captionPage(tokens, 1)]), "many-tokens.pdf"), {
      noCache: true,
    });
    const anchors = await documentAnchors(doc);
    // The tokens inside the line follow other text on it: none of them is a caption.
    expect(anchors.figures.filter((f) => f.label !== "1")).toEqual([]);
    expect(checkFigure(anchors, { label: "450" }).verdict).toBe("FAIL");
  });
});
