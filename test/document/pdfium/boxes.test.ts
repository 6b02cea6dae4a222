// Box and matrix arithmetic, without the engine.
import { describe, expect, it } from "vitest";
import {
  clipRegion,
  intersect,
  type Matrix,
  multiply,
  transformBox,
} from "../../../src/document/pdfium/boxes.js";

const page = { left: 0, bottom: 0, right: 612, top: 792 };

describe("boxes", () => {
  it("multiply applies the first matrix, then the second", () => {
    const scale: Matrix = [2, 0, 0, 2, 0, 0];
    const shift: Matrix = [1, 0, 0, 1, 10, 20];
    expect(multiply(scale, shift)).toEqual([2, 0, 0, 2, 10, 20]);
    expect(multiply(shift, scale)).toEqual([2, 0, 0, 2, 20, 40]);
  });

  it("transformBox bounds the transformed corners (a quarter turn here)", () => {
    const quarter: Matrix = [0, 1, -1, 0, 0, 0];
    expect(transformBox({ left: 1, bottom: 2, right: 3, top: 5 }, quarter)).toEqual({
      left: -5,
      bottom: 1,
      right: -2,
      top: 3,
    });
  });

  it("intersect gives the overlap, or the second box when there is none", () => {
    expect(intersect({ left: -10, bottom: 10, right: 100, top: 900 }, page)).toEqual({
      left: 0,
      bottom: 10,
      right: 100,
      top: 792,
    });
    expect(intersect({ left: 700, bottom: 0, right: 800, top: 10 }, page)).toEqual(page);
  });

  it("clipRegion clips to the page and refuses a box that is empty, not finite or outside", () => {
    expect(clipRegion({ left: -5, bottom: 700, right: 50, top: 800 }, page, 1)).toEqual({
      left: 0,
      bottom: 700,
      right: 50,
      top: 792,
    });
    for (const box of [
      { left: 10, bottom: 10, right: 10, top: 20 },
      { left: 0, bottom: 0, right: Number.NaN, top: 1 },
      { left: 700, bottom: 0, right: 800, top: 10 },
    ])
      expect(() => clipRegion(box, page, 3)).toThrow(expect.objectContaining({ code: "BOX_INVALID" }));
  });
});
