// The document model as the PDFium adapter builds it, over the committed LaTeX fixtures.
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Box,
  CHAR_FLAG_GENERATED,
  CHAR_FLAG_LINE_END_HYPHEN,
  type PageGeometry,
  type PageText,
} from "../../src/document/model.js";
import { type OpenedDocument, openDocument } from "../../src/document/open.js";
import { fixture } from "../helpers/fixture-files.js";

async function open(name: string): Promise<OpenedDocument> {
  return openDocument(fixture(name), { noCache: true, withGeometry: true });
}

function glyphBox(geom: PageGeometry, i: number): Box {
  const g = geom.glyphBoxes;
  return { left: g[i * 4], bottom: g[i * 4 + 1], right: g[i * 4 + 2], top: g[i * 4 + 3] };
}

function boxesOf(doc: OpenedDocument, page: number, at: number, length: number): Box[] {
  const geom = doc.geometry.get(page)!;
  return Array.from({ length }, (_, k) => glyphBox(geom, at + k));
}

/** Checks the invariants every extracted page must hold. */
function expectWellFormed(text: PageText, geom: PageGeometry): void {
  const n = text.text.length;
  expect(geom.glyphBoxes.length).toBe(n * 4);
  expect(geom.looseBoxes.length).toBe(n * 4);
  expect(geom.origins.length).toBe(n * 2);
  expect(geom.fontSizes.length).toBe(n);
  expect(geom.fontIndex.length).toBe(n);
  expect(geom.flags.length).toBe(n);
  const m = text.mediaBox;
  const slack = 2;
  for (let i = 0; i < n; i++) {
    const b = glyphBox(geom, i);
    if (geom.flags[i] & CHAR_FLAG_GENERATED) {
      expect(Number.isNaN(b.left) && Number.isNaN(b.top)).toBe(true);
      expect(geom.fontIndex[i]).toBe(-1);
      expect(" \n").toContain(text.text[i]);
      continue;
    }
    expect(b.left).toBeLessThanOrEqual(b.right);
    expect(b.bottom).toBeLessThanOrEqual(b.top);
    expect(b.left).toBeGreaterThanOrEqual(m.left - slack);
    expect(b.right).toBeLessThanOrEqual(m.right + slack);
    expect(b.bottom).toBeGreaterThanOrEqual(m.bottom - slack);
    expect(b.top).toBeLessThanOrEqual(m.top + slack);
    expect(geom.fontIndex[i]).toBeGreaterThanOrEqual(0);
    expect(geom.fontIndex[i]).toBeLessThan(text.fonts.length);
    expect(geom.fontSizes[i]).toBeGreaterThan(0);
    // The loose box (advance x ascent/descent) holds the origin's baseline.
    const oy = geom.origins[i * 2 + 1];
    expect(geom.looseBoxes[i * 4 + 1]).toBeLessThanOrEqual(oy + 0.5);
    expect(geom.looseBoxes[i * 4 + 3]).toBeGreaterThanOrEqual(oy - 0.5);
  }
  // Lines partition the text at '\n' and their boxes hold their glyphs.
  let expectedStart = 0;
  for (const line of text.lines) {
    expect(line.startUtf16).toBe(expectedStart);
    expect(text.text.slice(line.startUtf16, line.endUtf16)).not.toContain("\n");
    for (let i = line.startUtf16; i < line.endUtf16; i++) {
      if (geom.flags[i] & CHAR_FLAG_GENERATED) continue;
      const b = glyphBox(geom, i);
      expect(b.left).toBeGreaterThanOrEqual(line.box.left - 0.01);
      expect(b.right).toBeLessThanOrEqual(line.box.right + 0.01);
    }
    expectedStart = line.endUtf16 + 1;
  }
  if (n > 0) expect(text.lines.at(-1)!.endUtf16).toBe(n);
  for (const h of text.lineEndHyphensUtf16) {
    expect(text.text[h]).toBe("-");
    expect(geom.flags[h] & CHAR_FLAG_LINE_END_HYPHEN).toBeTruthy();
  }
}

describe("typography fixture", () => {
  let doc: OpenedDocument;
  let text: PageText;
  beforeAll(async () => {
    doc = await open("typography");
    text = doc.pages[0]!;
  });

  it("holds one well-formed page", () => {
    expect(doc.pageCount).toBe(1);
    expect(doc.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(text.hasTextLayer).toBe(true);
    expectWellFormed(text, doc.geometry.get(1)!);
  });

  it("reads ligature glyphs as separate letters sharing one glyph box", () => {
    expect(text.text).toContain("first office staff flagged an efficient affine waffle shuffle");
    for (const [word, lig] of [
      ["first", "fi"],
      ["flagged", "fl"],
      ["fluffy", "ff"],
      ["office", "ffi"],
      ["waffle", "ffl"],
    ] as const) {
      const at = text.text.indexOf(word) + word.indexOf(lig);
      const boxes = boxesOf(doc, 1, at, lig.length);
      for (const b of boxes.slice(1)) expect(b).toEqual(boxes[0]);
      // The letter after the ligature has a box of its own.
      const next = boxesOf(doc, 1, at + lig.length, 1)[0];
      expect(next.left).toBeGreaterThan(boxes[0].left);
    }
    // Two letters that are not a ligature do not share a box.
    const at = text.text.indexOf("first") + 2;
    const [r, s] = boxesOf(doc, 1, at, 2);
    expect(r.left).toBeLessThan(s.left);
  });

  it("keeps curly quotes, dashes and the minus sign as printed", () => {
    expect(text.text).toContain("\u201ca remarkably robust design\u201d");
    expect(text.text).toContain("\u2018minor\u2019");
    expect(text.text).toContain("authors\u2019 own view");
    expect(text.text).toContain("pages 10\u201320 for details\u2014the effect was small\u2014and");
    expect(text.text).toContain("offset was \u22123.5 units");
    expect(text.text).toContain("an effect of 5\u20138% was seen in 158 trials");
  });

  it("names each character's font and size", () => {
    const geom = doc.geometry.get(1)!;
    const minus = text.text.indexOf("\u2212");
    expect(text.fonts[geom.fontIndex[minus]]).toMatch(/CMSY10$/);
    const letter = text.text.indexOf("Ligatures");
    expect(text.fonts[geom.fontIndex[letter]]).toMatch(/CMR10$/);
    // 11pt article: body text at 10.95pt.
    expect(geom.fontSizes[letter]).toBeCloseTo(10.95, 1);
  });

  it("flags a line-end hyphen and ends the line after it", () => {
    const h = text.text.indexOf("perfor-");
    expect(h).toBeGreaterThan(0);
    const hyphen = h + "perfor".length;
    expect(text.lineEndHyphensUtf16).toEqual([hyphen]);
    expect(text.text.slice(hyphen, hyphen + 7)).toBe("-\nmance");
    const geom = doc.geometry.get(1)!;
    expect(geom.flags[hyphen] & CHAR_FLAG_LINE_END_HYPHEN).toBeTruthy();
    expect(geom.flags[hyphen + 1] & CHAR_FLAG_GENERATED).toBeTruthy();
    const line = text.lines.find((l) => l.endUtf16 === hyphen + 1);
    expect(line).toBeDefined();
    expect(text.text.slice(line!.startUtf16, line!.endUtf16)).toBe("The measured overall perfor-");
    // The next printed line lies below.
    const next = text.lines[text.lines.indexOf(line!) + 1];
    expect(next.box.top).toBeLessThan(line!.box.bottom + 3);
  });
});

describe("layout fixture: page boxes, /Rotate, CropBox, empty page, graphics", () => {
  let doc: OpenedDocument;
  beforeAll(async () => {
    doc = await open("layout");
  });
  // The block's last line is set flush left, so it lies at the same place on every page.
  const BLOCK = "watches from the gate.";

  it("holds six well-formed pages", () => {
    expect(doc.pageCount).toBe(6);
    for (let p = 1; p <= 6; p++) expectWellFormed(doc.pages[p - 1]!, doc.geometry.get(p)!);
  });

  it("reports MediaBox, CropBox, rotation and the displayed size", () => {
    const [control, rotated, cropped, landscape] = doc.pages as PageText[];
    const letter = { left: 0, bottom: 0, right: 612, top: 792 };
    expect(control.mediaBox).toEqual(letter);
    expect(control.cropBox).toEqual(letter);
    expect([control.rotation, control.width, control.height]).toEqual([0, 612, 792]);
    expect(rotated.mediaBox).toEqual(letter);
    expect([rotated.rotation, rotated.width, rotated.height]).toEqual([90, 792, 612]);
    expect(cropped.mediaBox).toEqual(letter);
    expect(cropped.cropBox).toEqual({ left: 50, bottom: 400, right: 560, top: 760 });
    expect([cropped.rotation, cropped.width, cropped.height]).toEqual([0, 510, 360]);
    expect([landscape.rotation, landscape.width, landscape.height]).toEqual([90, 792, 612]);
  });

  it("gives glyph boxes in default user space whatever the /Rotate and CropBox", () => {
    const boxesOfBlock = (page: number) => {
      const at = doc.pages[page - 1]!.text.indexOf(BLOCK);
      expect(at).toBeGreaterThanOrEqual(0);
      return boxesOf(doc, page, at, BLOCK.length);
    };
    const control = boxesOfBlock(1);
    // The text block starts at the 72bp margin, as typeset, whatever the page's boxes.
    for (const [page, marker] of [
      [1, "Control"],
      [2, "Rotated"],
      [3, "Cropped"],
      [6, "Closing"],
    ] as const) {
      const first = glyphBox(doc.geometry.get(page)!, doc.pages[page - 1]!.text.indexOf(marker));
      expect(first.left).toBeGreaterThan(72);
      expect(first.left).toBeLessThan(74);
      expect(first.top).toBeGreaterThan(710);
      expect(first.top).toBeLessThan(720);
    }
    for (const page of [2, 3, 6]) {
      const boxes = boxesOfBlock(page);
      boxes.forEach((b, k) => {
        if (Number.isNaN(control[k].left)) return;
        expect(b.left).toBeCloseTo(control[k].left, 2);
        expect(b.bottom).toBeCloseTo(control[k].bottom, 2);
        expect(b.right).toBeCloseTo(control[k].right, 2);
        expect(b.top).toBeCloseTo(control[k].top, 2);
      });
    }
  });

  it("reads a landscape page's turned text upright, line after line", () => {
    const page = doc.pages[3]!;
    expect(page.text.replace(/\s+/g, " ")).toContain(
      "Wide tables are often set on such pages, turned so that the reader rotates the sheet, and their rows must still be read in the right order from top to bottom.",
    );
    // In user space the turned lines run up the page: each line box is taller than wide.
    const lines = page.lines.filter((l) => l.endUtf16 - l.startUtf16 > 20);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const l of lines) expect(l.box.top - l.box.bottom).toBeGreaterThan(l.box.right - l.box.left);
  });

  it("marks the empty page as having no text layer", () => {
    const empty = doc.pages[4]!;
    expect(empty.text).toBe("");
    expect(empty.hasTextLayer).toBe(false);
    expect(empty.extractionError).toBeUndefined();
    expect(empty.graphics).toEqual([]);
    expect(doc.pages[5]!.hasTextLayer).toBe(true);
  });

  it("lists path and image bounds, with a form XObject's matrix applied", () => {
    const page = doc.pages[0]!;
    const size = (b: Box) => [Math.round(b.right - b.left), Math.round(b.top - b.bottom)];
    const paths = page.graphics.filter((g) => g.kind === "path");
    const images = page.graphics.filter((g) => g.kind === "image");
    expect(page.graphicsDropped).toBe(0);
    expect(images.map((g) => size(g.box))).toEqual([[40, 30]]);
    expect(paths.map((g) => size(g.box))).toEqual([
      [100, 20],
      [60, 10],
    ]);
    // Each graphic sits right after its label on the same line, not at the form's own origin.
    for (const [label, box] of [
      ["Path:", paths[0].box],
      ["Image:", images[0].box],
      ["Form:", paths[1].box],
    ] as const) {
      const at = page.text.indexOf(label);
      const line = page.lines.find((l) => l.startUtf16 === at)!;
      expect(box.left).toBeGreaterThan(line.box.right);
      expect(box.left).toBeLessThan(line.box.right + 12);
      expect(box.bottom).toBeLessThan(line.box.top);
      expect(box.top).toBeGreaterThan(line.box.bottom);
    }
  });
});

describe("two-column fixture", () => {
  it("keeps each column's lines together, in reading order", async () => {
    const doc = await open("twocolumn");
    const page = doc.pages[0]!;
    expectWellFormed(page, doc.geometry.get(1)!);
    const left = page.lines.filter((l) => l.box.right < 306 && l.endUtf16 > l.startUtf16);
    const right = page.lines.filter((l) => l.box.left > 306);
    expect(left.length).toBeGreaterThan(20);
    expect(right.length).toBeGreaterThan(10);
    // Every line of the left column comes before every line of the right column.
    const lastLeft = Math.max(...left.map((l) => l.startUtf16));
    const firstRight = Math.min(...right.map((l) => l.startUtf16));
    expect(lastLeft).toBeLessThan(firstRight);
    // Within a column, lines run from top to bottom.
    for (const column of [left, right]) {
      const body = column.filter((l) => l.fontSize === 10);
      for (let i = 1; i < body.length; i++) expect(body[i].box.top).toBeLessThan(body[i - 1].box.top);
    }
  });
});
