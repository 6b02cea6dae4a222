/**
 * Render worker: a long-lived thread that keeps the engine loaded and the last document open, so a
 * second crop of the same PDF costs only the render. The main thread terminates it at a deadline.
 */
import { parentPort, workerData } from "node:worker_threads";
import { CiteproofError } from "../errors.js";
import type { Box } from "./model.js";
import { type EngineDocument, type EngineRender, loadEngine } from "./pdfium-engine.js";
import { type CloseRequest, endAfterGrace } from "./worker-end.js";

export interface RenderRequest {
  id: number;
  /** Identifies the document; bytes come along only when the worker does not hold it open. */
  key: string;
  bytes?: Uint8Array;
  password?: string;
  page: number;
  box?: Box;
  dpi: number;
}

export type RenderReply =
  | { id: number; type: "rendered"; result: EngineRender }
  /** With `lost`, the engine aborted: this worker serves nothing more and ends. */
  | { id: number; type: "error"; code: string; message: string; lost?: true };

/** What the worker is started with. */
export interface RenderSetup {
  /** How far the engine's memory may grow, in bytes. */
  engineMemoryBytes?: number;
}

const setup = (workerData ?? {}) as RenderSetup;
const engineReady = loadEngine(
  setup.engineMemoryBytes === undefined ? undefined : { memoryBytes: setup.engineMemoryBytes },
);
let ended = false;

let held: { key: string; doc: EngineDocument } | undefined;

async function handle(request: RenderRequest): Promise<EngineRender> {
  const engine = await engineReady;
  if (request.bytes) {
    held?.doc.close();
    held = undefined;
    held = { key: request.key, doc: engine.open(request.bytes, request.password) };
  }
  if (!held || held.key !== request.key) {
    throw new CiteproofError("INTERNAL", "the render worker does not hold the document");
  }
  const doc = held.doc;
  if (!Number.isInteger(request.page) || request.page < 1 || request.page > doc.pageCount) {
    throw new CiteproofError(
      "PAGE_OUT_OF_RANGE",
      `page ${request.page} does not exist (the PDF has ${doc.pageCount} pages)`,
    );
  }
  return doc.renderRegion(request.page - 1, request.box, request.dpi);
}

const port = parentPort!;
port.on("message", (request: RenderRequest | CloseRequest) => {
  if (ended) return;
  if ("close" in request) {
    held?.doc.close();
    held = undefined;
    endAfterGrace(port);
    return;
  }
  handle(request).then(
    (result) => {
      port.postMessage({ id: request.id, type: "rendered", result } satisfies RenderReply, [
        result.png.buffer as ArrayBuffer,
      ]);
    },
    (error: unknown) => {
      const code = error instanceof CiteproofError ? error.code : "INTERNAL";
      const message = error instanceof Error ? error.message : String(error);
      void engineReady
        .catch(() => undefined)
        .then((engine) => {
          const lost = engine === undefined || engine.state.aborted !== undefined;
          port.postMessage({
            id: request.id,
            type: "error",
            code,
            message,
            ...(lost ? { lost: true as const } : {}),
          } satisfies RenderReply);
          if (!lost) return;
          ended = true;
          endAfterGrace(port);
        });
    },
  );
});
