import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Box } from "../../src/document/model.js";
import { openDocument } from "../../src/document/open.js";
import {
  closeRenderer,
  deviceBoxToUser,
  deviceToUser,
  renderRegion,
  userToDevice,
} from "../../src/document/render.js";
import { sha256Hex } from "../../src/source/file.js";
import { darkBounds, decodePng } from "../helpers/png.js";

const path = "test/fixtures/render-rotated.pdf";
const bytes = new Uint8Array(readFileSync(path));
const source = { bytes, sha256: sha256Hex(bytes), origin: path };

afterAll(() => closeRenderer());

async function markerBox(page: number): Promise<Box> {
  const doc = await openDocument(source, { noCache: true, withGeometry: true, pages: [page] });
  const text = doc.pages[page - 1]!;
  const geom = doc.geometry.get(page)!;
  const i = [...text.text].findIndex((ch, k) => ch === "X" && geom.fontSizes[k] > 20);
  expect(i).toBeGreaterThanOrEqual(0);
  const g = geom.glyphBoxes;
  return { left: g[i * 4], bottom: g[i * 4 + 1], right: g[i * 4 + 2], top: g[i * 4 + 3] };
}

describe("renderRegion", () => {
  for (const [page, rotation] of [
    [1, 0],
    [2, 90],
    [3, 180],
    [4, 270],
  ] as const) {
    it(`puts the marker's pixels where its user-space box says, under /Rotate ${rotation} and a shifted CropBox`, async () => {
      const glyph = await markerBox(page);
      const pad = 12;
      const region = {
        left: glyph.left - pad,
        bottom: glyph.bottom - pad,
        right: glyph.right + pad,
        top: glyph.top + pad,
      };
      const r = await renderRegion(source, page, region, 150);
      expect(r.transform.rotation).toBe(rotation);
      const img = decodePng(r.png);
      expect([img.width, img.height]).toEqual([r.widthPx, r.heightPx]);
      const scale = 150 / 72;
      const w = (region.right - region.left) * scale;
      const h = (region.top - region.bottom) * scale;
      const [ew, eh] = rotation % 180 === 0 ? [w, h] : [h, w];
      expect(Math.abs(r.widthPx - ew)).toBeLessThanOrEqual(2);
      expect(Math.abs(r.heightPx - eh)).toBeLessThanOrEqual(2);
      const dark = darkBounds(img)!;
      expect(dark).toBeDefined();
      const seen = deviceBoxToUser(dark.x0, dark.y0, dark.x1, dark.y1, r.transform);
      const tolerance = 1.5; // points: anti-aliasing and the glyph box's own rounding
      expect(Math.abs(seen.left - glyph.left)).toBeLessThan(tolerance);
      expect(Math.abs(seen.right - glyph.right)).toBeLessThan(tolerance);
      expect(Math.abs(seen.bottom - glyph.bottom)).toBeLessThan(tolerance);
      expect(Math.abs(seen.top - glyph.top)).toBeLessThan(tolerance);
    });

    it(`renders the black square exactly where its path box is, under /Rotate ${rotation}`, async () => {
      const doc = await openDocument(source, { noCache: true, pages: [page] });
      const square = doc.pages[page - 1]!.graphics[0].box;
      const region = {
        left: square.left - 20,
        bottom: square.bottom - 15,
        right: square.right + 10,
        top: square.top + 5,
      };
      const r = await renderRegion(source, page, region, 200);
      const dark = darkBounds(decodePng(r.png))!;
      const seen = deviceBoxToUser(dark.x0, dark.y0, dark.x1, dark.y1, r.transform);
      const pixel = 72 / 200;
      expect(Math.abs(seen.left - square.left)).toBeLessThanOrEqual(pixel);
      expect(Math.abs(seen.right - square.right)).toBeLessThanOrEqual(pixel);
      expect(Math.abs(seen.bottom - square.bottom)).toBeLessThanOrEqual(pixel);
      expect(Math.abs(seen.top - square.top)).toBeLessThanOrEqual(pixel);
    });
  }

  it("renders the whole visible page with the displayed orientation", async () => {
    const upright = await renderRegion(source, 1, "page", 72);
    expect([upright.widthPx, upright.heightPx]).toEqual([380, 460]);
    const turned = await renderRegion(source, 2, "page", 72);
    expect([turned.widthPx, turned.heightPx]).toEqual([445, 370]);
    const corner = deviceToUser(0, 0, turned.transform);
    // /Rotate 90 turns the page clockwise: the CropBox's bottom-left corner shows at the top-left.
    expect(corner.x).toBeCloseTo(15, 5);
    expect(corner.y).toBeCloseTo(25, 5);
  });

  it("maps points both ways", async () => {
    for (const page of [1, 2, 3, 4]) {
      const r = await renderRegion(source, page, { left: 100, bottom: 120, right: 220, top: 300 }, 144);
      for (const [x, y] of [
        [100, 120],
        [150.5, 200.25],
        [220, 300],
      ]) {
        const d = userToDevice(x, y, r.transform);
        const u = deviceToUser(d.xPx, d.yPx, r.transform);
        expect(u.x).toBeCloseTo(x, 6);
        expect(u.y).toBeCloseTo(y, 6);
      }
    }
  });

  it("clips a box that reaches past the page", async () => {
    const r = await renderRegion(source, 1, { left: -100, bottom: -100, right: 50, top: 60 }, 72);
    expect([r.widthPx, r.heightPx]).toEqual([40, 40]);
  });

  it("refuses a box outside the page, a box that is not finite, a page out of range and a wild dpi", async () => {
    await expect(
      renderRegion(source, 1, { left: 500, bottom: 0, right: 600, top: 10 }, 150),
    ).rejects.toMatchObject({
      code: "BOX_INVALID",
    });
    await expect(
      renderRegion(source, 1, { left: Number.NaN, bottom: 0, right: 600, top: 10 }, 150),
    ).rejects.toMatchObject({ code: "BOX_INVALID" });
    await expect(
      renderRegion(source, 1, { left: 50, bottom: 60, right: 40, top: 70 }, 150),
    ).rejects.toMatchObject({
      code: "BOX_INVALID",
    });
    await expect(renderRegion(source, 9, "page", 150)).rejects.toMatchObject({ code: "PAGE_OUT_OF_RANGE" });
    await expect(renderRegion(source, 1, "page", 5000)).rejects.toMatchObject({ code: "USAGE" });
    // The worker still serves after refusals.
    const r = await renderRegion(source, 1, "page", 36);
    expect(r.widthPx).toBe(190);
  });

  it("stops a render that passes its deadline and serves the next one", async () => {
    await closeRenderer();
    await expect(renderRegion(source, 1, "page", 600, { timeoutMs: 1 })).rejects.toMatchObject({
      code: "RENDER_TIMEOUT",
    });
    const r = await renderRegion(source, 1, "page", 36);
    expect(r.heightPx).toBe(230);
  });
});
