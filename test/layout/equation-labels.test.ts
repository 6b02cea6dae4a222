import { describe, expect, it } from "vitest";
import { openDocument } from "../../src/document/open.js";
import { closeRenderer, deviceBoxToUser, renderRegion } from "../../src/document/render.js";
import { anchorRegion } from "../../src/layout/anchor-lookup.js";
import { REJECTION_REASONS, type RejectionReason } from "../../src/layout/rejection-reasons.js";
import { fixture } from "../helpers/fixture-files.js";
import { darkBounds, decodePng } from "../helpers/png.js";
import { accepted, anchorsOf, rejectedWith } from "./support.js";

describe("equation labels numbered within sections", () => {
  it("accepts every printed label, with subequations, \\tag, align lines, the page foot and the appendix", async () => {
    const r = await anchorsOf("eq-sections");
    expect(accepted(r)).toEqual([
      "1.1",
      "1.2",
      "1.3",
      "1.4",
      "1.5",
      "7",
      "2.1a",
      "2.1b",
      "2.2",
      "A.1",
      "A.2",
      "A.3",
    ]);
    // The unnumbered display prints nothing; each label is at the column's right edge.
    expect(r.equations.every((e) => e.side === "right")).toBe(true);
  });

  it("accepts the label of a display that ends a page", async () => {
    const r = await anchorsOf("eq-sections");
    const foot = r.equations.find((e) => e.label === "2.2")!;
    expect(foot.page).toBe(2);
    expect(foot.labelBox.bottom).toBeLessThan(100);
  });

  it("does not accept the subequation parent, which is never printed", async () => {
    const r = await anchorsOf("eq-sections");
    expect(accepted(r)).not.toContain("2.1");
    expect(rejectedWith(r, "2.1")).toEqual([]);
  });

  it("rejects table rows ending in (4) as tabular", async () => {
    const rows = rejectedWith(await anchorsOf("eq-sections"), "4");
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.reasons).toContain("tabular");
  });

  it("rejects enumerate items (1) to (3), prose (3) and a footnote's (6) as running text", async () => {
    const r = await anchorsOf("eq-sections");
    const items = r.rejectedEquationCandidates.filter(
      (c) => c.page === 1 && c.labelBox.left < 95 && c.labelBox.bottom > 300,
    );
    expect(items.map((c) => c.label)).toEqual(["1", "2", "3"]);
    for (const item of items)
      expect(item.reasons).toEqual(expect.arrayContaining(["no-display", "text-after-label"]));
    const prose = rejectedWith(r, "3").filter((c) => c.page === 1 && c.labelBox.left > 100);
    expect(prose.length).toBeGreaterThanOrEqual(2);
    for (const p of prose)
      expect(p.reasons).toEqual(expect.arrayContaining(["not-at-column-edge", "text-after-label"]));
    expect(rejectedWith(r, "6")[0].reasons).toContain("text-after-label");
  });

  it("rejects a margin note and page numbers printed (n) as page margin", async () => {
    const r = await anchorsOf("eq-sections");
    expect(rejectedWith(r, "9")[0].reasons).toEqual(["no-column", "page-margin"]);
    const folios = r.rejectedEquationCandidates.filter((c) => c.labelBox.top < 60);
    expect(folios.map((c) => [c.page, c.label])).toEqual([
      [1, "1"],
      [2, "2"],
      [3, "3"],
    ]);
    for (const f of folios) expect(f.reasons).toContain("page-margin");
  });
});

describe("left-side labels (leqno) and continuous numbering", () => {
  it("accepts labels at the left edge, subequations, gather and multline", async () => {
    const r = await anchorsOf("eq-leqno");
    expect(accepted(r)).toEqual(["1", "2", "3", "4a", "4b", "5", "7", "8"]);
    expect(r.equations.every((e) => e.side === "left")).toBe(true);
  });

  it("reads the printed label, not the hyperref name (equation.A.7 prints (7))", async () => {
    const r = await anchorsOf("eq-leqno");
    expect(accepted(r)).toContain("7");
    expect(accepted(r)).not.toContain("A.7");
    expect(accepted(r)).not.toContain("1.1");
  });

  it("rejects a paragraph opening with (3)", async () => {
    const [opening] = rejectedWith(await anchorsOf("eq-leqno"), "3");
    expect(opening.reasons).toEqual(["no-display", "no-math", "text-after-label"]);
  });

  it("rejects a display of words only as no-math, and only that", async () => {
    expect(rejectedWith(await anchorsOf("eq-leqno"), "6")[0].reasons).toEqual(["no-math"]);
  });

  it("rejects a flush-left formula whose label is pushed right as not centred, and only that", async () => {
    expect(rejectedWith(await anchorsOf("eq-leqno"), "12")[0].reasons).toEqual(["not-centred"]);
  });

  it("rejects a label drawn beside a figure's shapes", async () => {
    const drawn = rejectedWith(await anchorsOf("eq-leqno"), "8");
    expect(drawn).toHaveLength(1);
    expect(drawn[0].reasons).toContain("graphics-beside-label");
  });
});

describe("two columns", () => {
  it("accepts labels at each column's right edge, a display at a column's foot included", async () => {
    const r = await anchorsOf("eq-twocolumn");
    expect(accepted(r)).toEqual(["1", "2", "3", "4", "5"]);
    const rights = new Set(r.equations.map((e) => Math.round(e.labelBox.right)));
    expect(rights.size).toBe(2);
  });

  it("rejects a token standing in the gutter as in no column", async () => {
    expect(rejectedWith(await anchorsOf("eq-twocolumn"), "9")[0].reasons).toContain("no-column");
  });
});

describe("rejection reasons", () => {
  it("are each produced by at least one fixture", async () => {
    const seen = new Set<RejectionReason>();
    for (const name of ["eq-sections", "eq-leqno", "eq-twocolumn", "eq-layouts", "eq-superscript-end"])
      for (const c of (await anchorsOf(name)).rejectedEquationCandidates)
        for (const reason of c.reasons) seen.add(reason);
    expect([...seen].sort()).toEqual([...REJECTION_REASONS].sort());
  });

  it("list every reason in a stable order", async () => {
    for (const c of (await anchorsOf("eq-sections")).rejectedEquationCandidates) {
      expect(c.reasons.length).toBeGreaterThan(0);
      expect([...c.reasons].sort()).toEqual(c.reasons);
    }
  });
});

describe("a landscape page (/Rotate 90, content turned in user space)", () => {
  it("reads its equation label and caption as displayed, with boxes in default user space", async () => {
    const r = await anchorsOf("landscape");
    expect(r.equations.map((e) => [e.label, e.page, e.side])).toEqual([
      ["1", 1, "right"],
      ["2", 2, "right"],
    ]);
    expect(r.figures.map((f) => [f.label, f.page])).toEqual([
      ["1", 1],
      ["2", 2],
    ]);
    // On the turned page, "(2)" runs up the page in user space: taller than wide, and within the MediaBox.
    const two = r.equations[1].labelBox;
    expect(two.top - two.bottom).toBeGreaterThan(two.right - two.left);
    expect(two.right).toBeLessThanOrEqual(612);
    expect(r.figures[1].captionBox.top - r.figures[1].captionBox.bottom).toBeGreaterThan(200);
  });

  it("renders the turned page's equation upright, its label at the right end of the crop", async () => {
    const r = await anchorsOf("landscape");
    const doc = await openDocument(fixture("landscape"), { noCache: true, pages: [2] });
    const anchor = r.equations[1];
    const crop = await renderRegion(doc.source, 2, anchorRegion({ kind: "equation", anchor }), 150);
    const img = decodePng(crop.png);
    expect(img.width).toBeGreaterThan(img.height * 4);
    const dark = darkBounds(img)!;
    const seen = deviceBoxToUser(dark.x0, dark.y0, dark.x1, dark.y1, crop.transform);
    // The rightmost ink is the label: in user space it is the label's top edge on this page.
    expect(Math.abs(seen.top - anchor.labelBox.top)).toBeLessThan(1.5);
    await closeRenderer();
  });
});
