/**
 * Pages extracted by several workers at once, handed on in page order: a page that comes early waits
 * until every page before it has been handed on or is known never to come.
 */
import type { ExtractedOrFailed, PageSink } from "./extract-pages.js";

export class PageOrder {
  private readonly waiting = new Map<number, ExtractedOrFailed | null>();
  private readonly seen = new Set<number>();
  private next = 0;

  /** `pages`: the pages asked for, in the order they are to be handed on. */
  constructor(
    private readonly pages: readonly number[],
    private readonly onPage: PageSink,
  ) {}

  add(got: ExtractedOrFailed): void {
    const page = "failed" in got ? got.failed : got.text.page;
    this.seen.add(page);
    this.waiting.set(page, got);
    this.flush();
  }

  /** Pages that will not come (past the document's end): nothing waits for them. */
  skip(pages: readonly number[]): void {
    for (const page of pages) {
      if (this.seen.has(page)) continue;
      this.seen.add(page);
      this.waiting.set(page, null);
    }
    this.flush();
  }

  private flush(): void {
    while (this.next < this.pages.length && this.waiting.has(this.pages[this.next])) {
      const page = this.pages[this.next++];
      const got = this.waiting.get(page);
      this.waiting.delete(page);
      if (got) this.onPage(got);
    }
  }
}
