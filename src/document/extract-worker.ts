/**
 * Extraction worker: a long-lived thread that keeps the engine loaded and the last document open,
 * and extracts the pages each request asks for, posting each page as it is done. It runs apart
 * from the main thread so a hostile PDF can be stopped by terminating it at a deadline.
 */
import { parentPort, workerData } from "node:worker_threads";
import { CiteproofError } from "../errors.js";
import type { ExtractedPage, PageGeometry } from "./model.js";
import { packPageText, type StoredPageText } from "./page-record.js";
import { type EngineDocument, loadEngine } from "./pdfium-engine.js";
import { type CloseRequest, endAfterGrace } from "./worker-end.js";

export interface WorkerRequest {
  id: number;
  /** Identifies the document (sha256 and password); bytes come along only when the worker does not hold it. */
  key: string;
  bytes?: Uint8Array;
  password?: string;
  /** 1-based pages to extract; undefined for all; empty for none (page count only). */
  pages?: number[];
  /** Also extract per-character geometry (loose boxes, origins) for the geometry cache. */
  withGeometry: boolean;
}

export type WorkerMessage = { id: number } & (
  | { type: "opened"; pageCount: number }
  | { type: "page"; page: { text: StoredPageText; geometry?: PageGeometry } }
  | { type: "page-error"; page: number; message: string }
  | { type: "done" }
  | { type: "error"; code: string; message: string }
  /** The engine aborted: this worker serves nothing more and ends; what it had not done is to be redone. */
  | { type: "lost"; message: string }
);

/** What the worker is started with. */
export interface WorkerSetup {
  /** How far the engine's memory may grow, in bytes. */
  engineMemoryBytes?: number;
}

const port = parentPort!;
const setup = (workerData ?? {}) as WorkerSetup;
const engineReady = loadEngine(
  setup.engineMemoryBytes === undefined ? undefined : { memoryBytes: setup.engineMemoryBytes },
);
let held: { key: string; doc: EngineDocument } | undefined;
/** The last document that failed to open: a request for it sent without bytes gets the same error. */
let lastFailure: { key: string; error: unknown } | undefined;

async function run(request: WorkerRequest): Promise<void> {
  const engine = await engineReady;
  if (request.bytes) {
    held?.doc.close();
    held = undefined;
    try {
      held = { key: request.key, doc: engine.open(request.bytes, request.password) };
      lastFailure = undefined;
    } catch (error) {
      lastFailure = { key: request.key, error };
      throw error;
    }
  }
  if (!held || held.key !== request.key) {
    if (lastFailure?.key === request.key) throw lastFailure.error;
    throw new CiteproofError("EXTRACTION_FAILED", "the extraction worker does not hold the document");
  }
  const { id } = request;
  const doc = held.doc;
  port.postMessage({ id, type: "opened", pageCount: doc.pageCount } satisfies WorkerMessage);
  const pages = request.pages ?? Array.from({ length: doc.pageCount }, (_, i) => i + 1);
  for (const page of pages) {
    if (page < 1 || page > doc.pageCount) continue;
    let extracted: ExtractedPage;
    try {
      extracted = doc.extractPage(page - 1, request.withGeometry);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      port.postMessage({ id, type: "page-error", page, message } satisfies WorkerMessage);
      if (engine.state.aborted) return;
      continue;
    }
    const g = extracted.geometry;
    const text = packPageText(extracted.text);
    const transfer = [
      text.lines.buffer,
      ...(g
        ? [
            g.glyphBoxes.buffer,
            g.looseBoxes.buffer,
            g.origins.buffer,
            g.fontSizes.buffer,
            g.fontIndex.buffer,
            g.flags.buffer,
          ]
        : []),
    ];
    port.postMessage(
      { id, type: "page", page: { text, geometry: g } } satisfies WorkerMessage,
      transfer as ArrayBuffer[],
    );
  }
  port.postMessage({ id, type: "done" } satisfies WorkerMessage);
}

/** After the engine aborted, the worker says so once and ends; it answers nothing more. */
let ended = false;
async function endIfLost(): Promise<void> {
  const engine = await engineReady.catch(() => undefined);
  if (ended || !engine?.state.aborted) return;
  ended = true;
  port.postMessage({
    id: 0,
    type: "lost",
    message: `the engine aborted (${engine.state.aborted})`,
  } satisfies WorkerMessage);
  endAfterGrace(port);
}

// Requests are handled one at a time, in the order they arrive.
let queue: Promise<void> = Promise.resolve();
port.on("message", (message: WorkerRequest | CloseRequest) => {
  if (ended) return;
  if ("close" in message) {
    queue = queue.then(() => {
      held?.doc.close();
      held = undefined;
      endAfterGrace(port);
    });
    return;
  }
  queue = queue.then(() =>
    (ended ? Promise.resolve() : run(message))
      .catch((error: unknown) => {
        // A document that failed is not held.
        held?.doc.close();
        held = undefined;
        const code = error instanceof CiteproofError ? error.code : "EXTRACTION_FAILED";
        const text = error instanceof Error ? error.message : String(error);
        port.postMessage({ id: message.id, type: "error", code, message: text } satisfies WorkerMessage);
      })
      .then(endIfLost),
  );
});
