// Pages from several workers handed on in page order (pure, no engine).
import { describe, expect, it } from "vitest";
import type { ExtractedOrFailed } from "../../src/document/extract-pages.js";
import { unreadablePage } from "../../src/document/open.js";
import { PageOrder } from "../../src/document/page-order.js";

const page = (n: number): ExtractedOrFailed => ({ text: unreadablePage(n, "stand-in text of a page") });
const number = (got: ExtractedOrFailed) => ("failed" in got ? got.failed : got.text.page);

describe("page order", () => {
  it("holds a page that comes early until the pages before it are handed on", () => {
    const out: number[] = [];
    const order = new PageOrder([1, 2, 3, 4, 5], (got) => out.push(number(got)));
    order.add(page(3));
    order.add({ failed: 4, message: "the engine stopped" });
    expect(out).toEqual([]);
    order.add(page(1));
    expect(out).toEqual([1]);
    order.add(page(2));
    expect(out).toEqual([1, 2, 3, 4]);
    order.add(page(5));
    expect(out).toEqual([1, 2, 3, 4, 5]);
  });

  it("does not wait for pages past the end, and hands on each page once", () => {
    const out: number[] = [];
    const order = new PageOrder([1, 2, 3, 4], (got) => out.push(number(got)));
    order.add(page(2));
    order.skip([2, 4]);
    expect(out).toEqual([]);
    order.add(page(1));
    expect(out).toEqual([1, 2]);
    order.add(page(3));
    expect(out).toEqual([1, 2, 3]);
  });
});
