/**
 * A PDF as a reading plan reads it, in the style of pdf.js's PDFDocumentProxy: its page count once
 * open (`numPages`), `getPage` for a page read (held, or read back from the cache once the rest of the
 * document is stored), and the stream of pages as the engine reads them (`readPages`). Checks see its
 * pages through `pages.get`, which gives undefined for a page not read yet and notes it in `unheld`, so
 * a check that reached for one is known to be unfinished (check-within.ts) and never taken for decided.
 */
import { UnheldReads } from "../checks/check-within.js";
import type { PageText } from "../document/model.js";
import { type OpenedDocument, type OpenOptions, openDocument } from "../document/open.js";
import type { PageSource } from "../document/page-source.js";
import type { PdfBytes } from "../source/file.js";

export class DocumentHandle {
  /** The page count, once the document is open (0 before). */
  numPages = 0;
  /** The pages a check read that are not read yet. */
  readonly unheld = new UnheldReads();
  /** The pages held, by page - 1 (only those read and not let go). */
  readonly held: (PageText | undefined)[] = [];
  /**
   * The pages as checks read them: a page held, or read back once the rest is stored; a page not read
   * yet is undefined, and noted in `unheld` (see above).
   */
  readonly pages: PageSource;
  private readBack: ((page: number) => PageText | undefined) | undefined;

  constructor(readonly sha256: string) {
    const handle = this;
    this.pages = {
      get count() {
        return handle.numPages;
      },
      get: (page) => this.getPage(page) ?? this.noteUnheld(page),
      held: () => this.held.filter((p): p is PageText => p !== undefined),
    };
  }

  private noteUnheld(page: number): undefined {
    if (page >= 1 && page <= this.numPages) this.unheld.notePage(page);
    return undefined;
  }

  /** The document is open with this many pages. */
  open(pageCount: number): void {
    this.numPages = pageCount;
    this.held.length = pageCount;
  }

  /** Holds a page read. */
  put(text: PageText): void {
    this.held[text.page - 1] = text;
  }

  /** A page read: held, or read back from the cache once the rest is stored; undefined when not read. */
  getPage(page: number): PageText | undefined {
    return this.held[page - 1] ?? this.readBack?.(page);
  }

  /** Whether a page is held now. */
  holds(page: number): boolean {
    return this.held[page - 1] !== undefined;
  }

  everyPageHeld(): boolean {
    for (let i = 0; i < this.numPages; i++) if (this.held[i] === undefined) return false;
    return true;
  }

  /** From now on a page not held is read back through `readPage` (the rest of the document is stored). */
  readBackWith(readPage: (page: number) => PageText | undefined): void {
    this.readBack = readPage;
  }

  /** Whether the pages not held are read back (the rest of the document is stored). */
  get readsBack(): boolean {
    return this.readBack !== undefined;
  }

  /** The pages the engine failed on. */
  anyUnreadable(): boolean {
    return this.held.some((page) => page?.extractionError !== undefined);
  }

  /** The pages not read, in page order. */
  pagesNotRead(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.numPages; i++) if (this.held[i] === undefined) out.push(i + 1);
    return out;
  }
}

export type PageEvent = { opened: number } | { page: PageText };

/**
 * The stream of a read: the page count once the document is open, then each page as the engine reads
 * it (pages the cache holds are not streamed: they are in the opened document); returns the opened
 * document. A read that fails (its deadline passed) throws from the stream after the pages read before.
 */
export async function* readPages(
  source: PdfBytes,
  options: OpenOptions,
): AsyncGenerator<PageEvent, OpenedDocument, undefined> {
  const queue: PageEvent[] = [];
  let next = 0;
  let wake: (() => void) | undefined;
  const push = (event: PageEvent) => {
    queue.push(event);
    wake?.();
    wake = undefined;
  };
  let settled: { doc: OpenedDocument } | { error: unknown } | undefined;
  openDocument(source, {
    ...options,
    onOpened: (pageCount) => push({ opened: pageCount }),
    onPageText: (text) => push({ page: text }),
  }).then(
    (doc) => {
      settled = { doc };
      wake?.();
    },
    (error: unknown) => {
      settled = { error };
      wake?.();
    },
  );
  for (;;) {
    while (next < queue.length) {
      const event = queue[next] as PageEvent;
      queue[next++] = undefined as unknown as PageEvent;
      yield event;
    }
    if (settled) {
      if ("error" in settled) throw settled.error;
      return settled.doc;
    }
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
}
