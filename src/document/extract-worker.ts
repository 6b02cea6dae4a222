/**
 * Worker-thread entry: opens the PDF and extracts the requested pages, posting each as it is done.
 * Runs apart from the main thread so a hostile PDF can be stopped by terminating the worker.
 */
import { parentPort, workerData } from "node:worker_threads";
import { CiteproofError } from "../errors.js";
import type { ExtractedPage } from "./model.js";
import { loadEngine } from "./pdfium-engine.js";

export interface WorkerRequest {
  bytes: Uint8Array;
  password?: string;
  /** 1-based pages to extract; undefined for all; empty for none (page count only). */
  pages?: number[];
  /** Also extract per-character geometry (loose boxes, origins) for the geometry cache. */
  withGeometry: boolean;
}

export type WorkerMessage =
  | { type: "opened"; pageCount: number }
  | { type: "page"; page: ExtractedPage }
  | { type: "page-error"; page: number; message: string }
  | { type: "done" }
  | { type: "error"; code: string; message: string };

async function run(request: WorkerRequest): Promise<void> {
  const port = parentPort!;
  const engine = await loadEngine();
  const doc = engine.open(request.bytes, request.password);
  try {
    port.postMessage({ type: "opened", pageCount: doc.pageCount } satisfies WorkerMessage);
    const pages = request.pages ?? Array.from({ length: doc.pageCount }, (_, i) => i + 1);
    for (const page of pages) {
      if (page < 1 || page > doc.pageCount) continue;
      let extracted: ExtractedPage;
      try {
        extracted = doc.extractPage(page - 1, request.withGeometry);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        port.postMessage({ type: "page-error", page, message } satisfies WorkerMessage);
        continue;
      }
      const g = extracted.geometry;
      const transfer = g
        ? [
            g.glyphBoxes.buffer,
            g.looseBoxes.buffer,
            g.origins.buffer,
            g.fontSizes.buffer,
            g.fontIndex.buffer,
            g.flags.buffer,
          ]
        : [];
      port.postMessage({ type: "page", page: extracted } satisfies WorkerMessage, transfer as ArrayBuffer[]);
    }
    port.postMessage({ type: "done" } satisfies WorkerMessage);
  } finally {
    doc.close();
  }
}

run(workerData as WorkerRequest).catch((error: unknown) => {
  const code = error instanceof CiteproofError ? error.code : "EXTRACTION_FAILED";
  const message = error instanceof Error ? error.message : String(error);
  parentPort!.postMessage({ type: "error", code, message } satisfies WorkerMessage);
});
