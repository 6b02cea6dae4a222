// The stored form of a page's text layer: lines packed for the cache, unpacked on first read, and
// a record of the wrong shape or for another page refused.
import { deserialize, serialize } from "node:v8";
import { describe, expect, it } from "vitest";
import type { PageText } from "../../src/document/model.js";
import { packPageText, unpackPageText } from "../../src/document/page-record.js";

const box = { left: 0, bottom: 0, right: 612, top: 792 };
const text: PageText = {
  page: 4,
  mediaBox: box,
  cropBox: box,
  rotation: 90,
  width: 792,
  height: 612,
  text: "First line\nsecond line",
  lines: [
    {
      startUtf16: 0,
      endUtf16: 10,
      box: { left: 72, bottom: 700.25, right: 140.5, top: 710 },
      fontSize: 10,
      font: 0,
    },
    {
      startUtf16: 11,
      endUtf16: 22,
      box: { left: 72, bottom: 688, right: 150, top: 698.75 },
      fontSize: 9.5,
      font: -1,
    },
  ],
  lineEndHyphensUtf16: [],
  scriptBreaksUtf16: [3],
  graphics: [{ kind: "path", box }],
  graphicsDropped: 0,
  fonts: ["CMR10"],
  hasTextLayer: true,
};

const roundTrip = (value: unknown) => deserialize(serialize(value)) as unknown;

describe("page records", () => {
  it("packs the lines into one typed array and gives back an equal page", () => {
    const stored = packPageText(text);
    expect(stored.lines).toBeInstanceOf(Float64Array);
    expect(stored.lines.length).toBe(16);
    const back = unpackPageText(roundTrip(stored), 4)!;
    expect(back).toEqual(text);
    expect(back.lines[1].box.top).toBe(698.75);
    expect(JSON.parse(JSON.stringify(back))).toEqual(JSON.parse(JSON.stringify(text)));
  });

  it("unpacks the lines once and lets them be replaced", () => {
    const back = unpackPageText(roundTrip(packPageText(text)), 4)!;
    expect(back.lines).toBe(back.lines);
    back.lines = [];
    expect(back.lines).toEqual([]);
  });

  it("stores an untouched page with the lines it came with, and packs them anew once read", () => {
    const stored = packPageText(text);
    const back = unpackPageText(roundTrip(stored), 4)!;
    const untouched = packPageText(back);
    expect(Object.getOwnPropertyDescriptor(back, "lines")?.get).toBeDefined();
    expect(Array.from(untouched.lines)).toEqual(Array.from(stored.lines));
    expect(packPageText(back).lines).toBe(untouched.lines);
    expect(Object.keys(untouched)).toEqual(Object.keys(text));
    back.lines[0].fontSize = 12;
    const again = packPageText(back);
    expect(again.lines).not.toBe(untouched.lines);
    expect(again.lines[6]).toBe(12);
    expect(unpackPageText(roundTrip(again), 4)!.lines[0].fontSize).toBe(12);
  });

  it("gives every page the same shape: the record's fields in order, one shared lines accessor", () => {
    const a = unpackPageText(roundTrip(packPageText(text)), 4)!;
    const b = unpackPageText(roundTrip(packPageText({ ...text, page: 5 })), 5)!;
    expect(Object.keys(a)).toEqual(Object.keys(text));
    const getter = (page: PageText) => Object.getOwnPropertyDescriptor(page, "lines")?.get;
    expect(getter(a)).toBeDefined();
    expect(getter(a)).toBe(getter(b));
    // What the lines are kept in stays out of copies and serialized forms.
    const copy = { ...a };
    expect(Object.getOwnPropertySymbols(copy)).toEqual([]);
    expect(copy.lines).toEqual(text.lines);
    expect(Object.keys(roundTrip(a) as object)).toEqual(Object.keys(text));
  });

  it("refuses a record for another page or of the wrong shape", () => {
    expect(unpackPageText(roundTrip(packPageText(text)), 5)).toBeUndefined();
    expect(unpackPageText(roundTrip(text), 4)).toBeUndefined();
    expect(unpackPageText({ ...packPageText(text), lines: new Float64Array(3) }, 4)).toBeUndefined();
    expect(unpackPageText({ ...packPageText(text), text: 7 }, 4)).toBeUndefined();
    expect(unpackPageText(null, 4)).toBeUndefined();
    expect(unpackPageText("page", 4)).toBeUndefined();
  });
});
