/**
 * Extracting pages through engine workers (main-thread side): the pages stream back as each is done;
 * an engine lost midway is replaced and only the pages not yet delivered are extracted again. A long
 * run of pages is split over several workers (jobs.ts), merged back in page order under one deadline.
 */
import { CiteproofError } from "../errors.js";
import type { PdfBytes } from "../source/file.js";
import { EngineClient, engine } from "./engine-client.js";
import { dealPages, PARALLEL_MIN_PAGES } from "./jobs.js";
import { engineMemoryBytes, MIN_ENGINE_SHARE_MB, maxMemoryMb } from "./memory-limit.js";
import type { PageGeometry, PageText } from "./model.js";
import { PageOrder } from "./page-order.js";
import { unpackPageText } from "./page-record.js";

/**
 * Up to this many pages asked for (a check's cited pages), a worker started for the request keeps the
 * engine on the baseline compiler (worker-flags.ts): below ~200 pages that is the cheaper tier, and
 * the bound leaves room for the rest of the document being read later on the same worker.
 */
export const SHORT_RUN_PAGES = 64;

export interface ExtractionRequest {
  source: PdfBytes;
  password?: string;
  pages?: number[];
  withGeometry: boolean;
}

export type ExtractedOrFailed =
  | { text: PageText; geometry?: PageGeometry }
  | { failed: number; message: string };
export type PageSink = (page: ExtractedOrFailed) => void;

export interface Extraction {
  pageCount: number;
  /** How many workers extracted the pages. */
  workers: number;
}

/**
 * Extracts the pages asked for (all when `request.pages` is undefined), delivering each to `onPage`
 * in page order, with up to `jobs` workers.
 */
export async function extractInWorker(
  request: ExtractionRequest,
  timeoutMs: number,
  onPage: PageSink,
  jobs = 1,
  onOpened?: (pageCount: number) => void,
): Promise<Extraction> {
  // Told once: a worker that replaces a lost one opens the document again.
  let told = false;
  const opened = (pageCount: number) => {
    if (told) return;
    told = true;
    onOpened?.(pageCount);
  };
  const deadline = { limitMs: timeoutMs, endsAt: Date.now() + timeoutMs };
  const workers = Math.min(jobs, jobsThatFit(request.source));
  let pages = request.pages;
  if (workers > 1 && pages === undefined) {
    // The split needs the page count: opening the document tells it, and the worker keeps it open to
    // take the first share (so its engine is compiled for a long run, not a short one).
    const { pageCount } = await extractWith(engine(), { ...request, pages: [] }, deadline, () => {}, opened, {
      releaseAfter: false,
      shortRun: false,
    });
    pages = Array.from({ length: pageCount }, (_, i) => i + 1);
  }
  if (workers <= 1 || pages === undefined || pages.length < PARALLEL_MIN_PAGES) {
    const { pageCount } = await extractWith(
      engine(),
      request,
      deadline,
      onPage,
      opened,
      runOf(request.pages),
    );
    return { pageCount, workers: 1 };
  }
  const shares = dealPages(pages, workers);
  const share = engineMemoryBytes(maxMemoryMb(), shares.length);
  // The process's engine, already started (and often holding the document), takes the first share:
  // a new worker for it would start and compile an engine while that one idles.
  const clients = shares.map((_, k) => (k === 0 ? engine() : new EngineClient(() => share)));
  const order = new PageOrder(pages, onPage);
  try {
    const results = await Promise.all(
      shares.map(async (list, k) => {
        const result = await extractWith(
          clients[k],
          { ...request, pages: list },
          deadline,
          (got) => order.add(got),
          opened,
          { releaseAfter: k === 0 && request.pages === undefined, shortRun: false },
        );
        // Pages of the list the worker did not send are past the document's end.
        order.skip(list);
        return result;
      }),
    );
    return { pageCount: results[0].pageCount, workers: shares.length };
  } finally {
    for (const client of clients.slice(1)) void client.close();
  }
}

/**
 * How a run of pages uses its worker. After a whole document the engine's memory is at its largest
 * and the next request, for the same document, will find its pages in the cache: the worker is let
 * go to free it. A few pages (a check's cited pages) keep the engine on the baseline compiler.
 */
function runOf(pages: number[] | undefined): { releaseAfter: boolean; shortRun: boolean } {
  return {
    releaseAfter: pages === undefined,
    shortRun: pages !== undefined && pages.length <= SHORT_RUN_PAGES,
  };
}

/** How many workers' engine memory fits the budget, each holding the document. */
function jobsThatFit(source: PdfBytes): number {
  const perWorker = MIN_ENGINE_SHARE_MB * 2 ** 20 + 2 * source.bytes.byteLength;
  return Math.max(1, Math.floor(engineMemoryBytes(maxMemoryMb()) / perWorker));
}

function extractWith(
  client: EngineClient,
  request: ExtractionRequest,
  deadline: { limitMs: number; endsAt: number },
  onPage: PageSink,
  onOpened: (pageCount: number) => void,
  run: { releaseAfter: boolean; shortRun: boolean },
): Promise<{ pageCount: number }> {
  let pageCount: number | undefined;
  const delivered = new Set<number>();
  return client.call(
    "extract",
    request.source,
    { pages: request.pages, withGeometry: request.withGeometry },
    {
      password: request.password,
      timeoutMs: Math.max(0, deadline.endsAt - Date.now()),
      timeoutError: () =>
        new CiteproofError(
          "EXTRACTION_TIMEOUT",
          `extraction did not finish within ${deadline.limitMs} ms and was stopped`,
          { option: "timeout_ms", limit: deadline.limitMs },
        ),
      fallbackCode: "EXTRACTION_FAILED",
      releaseAfter: run.releaseAfter,
      shortRun: run.shortRun,
      onChunk(chunk) {
        switch (chunk.type) {
          case "opened":
            pageCount = chunk.pageCount;
            onOpened(pageCount);
            return;
          case "page": {
            const text = unpackPageText(chunk.page.text, chunk.page.text.page);
            if (!text)
              throw new CiteproofError("INTERNAL", "the engine worker sent a page of the wrong shape");
            delivered.add(text.page);
            onPage({ text, geometry: chunk.page.geometry });
            return;
          }
          case "page-error":
            delivered.add(chunk.page);
            onPage({ failed: chunk.page, message: chunk.message });
            return;
        }
      },
      resume() {
        if (pageCount === undefined)
          return { args: { pages: request.pages, withGeometry: request.withGeometry } };
        const count = pageCount;
        const asked = request.pages ?? Array.from({ length: count }, (_, i) => i + 1);
        const rest = asked.filter((page) => page >= 1 && page <= count && !delivered.has(page));
        return rest.length > 0
          ? { args: { pages: rest, withGeometry: request.withGeometry } }
          : { done: { pageCount: count } };
      },
    },
  );
}
