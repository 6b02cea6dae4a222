// Folded views kept across runs in one process, by the page's text object: a later run's FoldedPages
// over the same page objects folds nothing again, a page object of its own (another document, or the
// same page read again) is folded afresh, and views of pages not kept for the run are not shared.
import { describe, expect, it } from "vitest";
import { FoldedPages } from "../../src/text/folded-pages.js";
import { textPage } from "../helpers/page-text.js";

const pages = () => [
  textPage(1, "The first page, with a hyphen-\nated word."),
  textPage(2, "The second page.", { hyphens: [] }),
];

describe("folded views shared across runs", () => {
  it("hands a later run the views folded from the same page objects", () => {
    const doc = pages();
    const first = new FoldedPages(doc);
    const view = first.view(1, "joined");
    const skeleton = first.skeletonView(2);
    const later = new FoldedPages(doc);
    expect(later.view(1, "joined")).toBe(view);
    expect(later.skeletonView(2)).toBe(skeleton);
    expect(later.findOnPage(1, "first page")).toEqual(first.findOnPage(1, "first page"));
  });

  it("folds a page object of its own afresh, to the same text", () => {
    const view = new FoldedPages(pages()).view(1, "joined");
    const again = new FoldedPages(pages()).view(1, "joined");
    expect(again).not.toBe(view);
    expect(again).toEqual(view);
  });

  it("shares no view of a page whose views are not kept for the run", () => {
    const doc = pages();
    const view = new FoldedPages(doc, { keepViews: () => false }).view(1, "joined");
    expect(new FoldedPages(doc).view(1, "joined")).not.toBe(view);
  });
});
