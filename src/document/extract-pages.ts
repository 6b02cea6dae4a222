/**
 * Extracting pages through the engine worker (main-thread side): the pages stream back as each is
 * done; an engine lost midway is replaced and only the pages not yet delivered are extracted again.
 */
import { CiteproofError } from "../errors.js";
import type { PdfBytes } from "../source/file.js";
import { engine } from "./engine-client.js";
import type { PageGeometry, PageText } from "./model.js";
import { unpackPageText } from "./page-record.js";

export interface ExtractionRequest {
  source: PdfBytes;
  password?: string;
  pages?: number[];
  withGeometry: boolean;
}

export type PageSink = (
  page: { text: PageText; geometry?: PageGeometry } | { failed: number; message: string },
) => void;

export function extractInWorker(
  request: ExtractionRequest,
  timeoutMs: number,
  onPage: PageSink,
): Promise<{ pageCount: number }> {
  let pageCount: number | undefined;
  const delivered = new Set<number>();
  return engine().call(
    "extract",
    request.source,
    { pages: request.pages, withGeometry: request.withGeometry },
    {
      password: request.password,
      timeoutMs,
      timeoutError: () =>
        new CiteproofError(
          "EXTRACTION_TIMEOUT",
          `extraction did not finish within ${timeoutMs} ms and was stopped`,
          { option: "timeout_ms", limit: timeoutMs },
        ),
      fallbackCode: "EXTRACTION_FAILED",
      // After a whole document the engine's memory is at its largest and the next request, for the
      // same document, will find its pages in the cache: let the worker go to free it.
      releaseAfter: request.pages === undefined,
      onChunk(chunk) {
        switch (chunk.type) {
          case "opened":
            pageCount = chunk.pageCount;
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
