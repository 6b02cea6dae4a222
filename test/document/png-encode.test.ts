// Renders for OCR are stored in the fewest channels their pixels need, the pixels unchanged: a gray
// page as 8-bit gray, a coloured one as RGB, one with transparency as RGBA.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { channelsNeeded, encodePngFewestChannels } from "../../src/document/png-encode.js";
import { closeRenderer, renderRegion } from "../../src/document/render.js";
import { sha256Hex } from "../../src/source/file.js";
import { decodePng } from "../helpers/png.js";

afterAll(() => closeRenderer());

/** RGBA rows `stride` bytes apart (padding after each row), each pixel from `pixel(x, y)`. */
function pixels(width: number, height: number, stride: number, pixel: (x: number, y: number) => number[]) {
  const out = new Uint8Array(stride * height).fill(7);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out.set(pixel(x, y), y * stride + x * 4);
  return out;
}

/** The RGBA of every pixel of a decoded PNG. */
function rgbaOf(png: Uint8Array): number[][] {
  const img = decodePng(png);
  const out: number[][] = [];
  for (let i = 0; i < img.width * img.height; i++) {
    const p = Array.from(img.data.subarray(i * img.channels, (i + 1) * img.channels));
    out.push(img.channels === 1 ? [p[0], p[0], p[0], 255] : img.channels === 3 ? [...p, 255] : p);
  }
  return out;
}

describe("a PNG in the fewest channels", () => {
  const cases: [string, (x: number, y: number) => number[], number][] = [
    ["gray", (x, y) => [(x * 40 + y) & 255, (x * 40 + y) & 255, (x * 40 + y) & 255, 255], 1],
    ["coloured", (x, y) => [x * 30, y * 20, 9, 255], 3],
    ["with transparency", (x, y) => [x, x, x, y === 2 ? 128 : 255], 4],
  ];
  for (const [name, pixel, channels] of cases)
    it(`keeps a ${name} image's pixels in ${channels} channel(s)`, () => {
      const [width, height, stride] = [5, 3, 24];
      const rgba = pixels(width, height, stride, pixel);
      expect(channelsNeeded(rgba, width, height, stride)).toBe(channels);
      const png = encodePngFewestChannels(rgba, width, height, stride, 1);
      expect(decodePng(png).channels).toBe(channels);
      const expected: number[][] = [];
      for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) expected.push(pixel(x, y));
      expect(rgbaOf(png)).toEqual(expected);
    });

  it("gives a rendered page the same pixels as the engine's encoder, gray where the page is", async () => {
    const path = "test/fixtures/render-rotated.pdf";
    const bytes = new Uint8Array(readFileSync(path));
    const source = { bytes, sha256: sha256Hex(bytes), origin: path };
    const engine = await renderRegion(source, 1, "page", 50, { pngCompression: 1 });
    const fewest = await renderRegion(source, 1, "page", 50, { pngCompression: 1, fewestChannels: true });
    expect(decodePng(engine.png).channels).toBe(4);
    expect(decodePng(fewest.png).channels).toBe(channelsOfPage(engine.png));
    expect(decodePng(fewest.png).channels).toBeLessThan(4);
    expect(rgbaOf(fewest.png)).toEqual(rgbaOf(engine.png));
    expect(fewest.transform).toEqual(engine.transform);
  });
});

/** What the fewest channels of a decoded RGBA page are. */
function channelsOfPage(png: Uint8Array): number {
  const img = decodePng(png);
  return channelsNeeded(img.data, img.width, img.height, img.width * 4);
}
