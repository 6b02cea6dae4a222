/**
 * The engine worker (the worker thread's side): a long-lived thread that keeps the engine loaded and
 * the last document open, and serves the main thread's calls one at a time, in the order they come.
 * It runs apart from the main thread so that a hostile PDF can be stopped by terminating it at a
 * deadline. The actions are declared in engine-protocol.ts; the main side is engine-client.ts.
 */
import { parentPort, workerData } from "node:worker_threads";
import { CiteproofError } from "../errors.js";
import type {
  ActionName,
  Actions,
  CallMessage,
  CloseMessage,
  DocumentRef,
  ReplyMessage,
  WorkerSetup,
} from "./engine-protocol.js";
import { toWire } from "./engine-protocol.js";
import type { ExtractedPage } from "./model.js";
import { packPageText } from "./page-record.js";
import type { EngineDocument } from "./pdfium/document.js";
import { type Engine, loadEngine } from "./pdfium/engine.js";
import { endAfterGrace } from "./worker-end.js";

const port = parentPort!;
const setup = (workerData ?? {}) as WorkerSetup;
/**
 * The engine is compiled when the first call comes, not when the thread starts: a worker may be started
 * ahead of its first call, and the compile tier the main thread chooses is set for that call.
 */
const engineReady = (): Promise<Engine> =>
  loadEngine(setup.engineMemoryBytes === undefined ? undefined : { memoryBytes: setup.engineMemoryBytes });

let held: { key: string; doc: EngineDocument } | undefined;
/** The last document that failed to open: a call for it sent without bytes gets the same error. */
let lastFailure: { key: string; error: unknown } | undefined;

function post(message: ReplyMessage, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

function openHeld(engine: Engine, ref: DocumentRef): EngineDocument {
  if (ref.bytes) {
    held?.doc.close();
    held = undefined;
    try {
      held = { key: ref.key, doc: engine.open(ref.bytes, ref.password) };
      lastFailure = undefined;
    } catch (error) {
      lastFailure = { key: ref.key, error };
      throw error;
    }
  }
  if (held?.key === ref.key) return held.doc;
  if (lastFailure?.key === ref.key) throw lastFailure.error;
  throw new CiteproofError("EXTRACTION_FAILED", "the engine worker does not hold the document");
}

type Sink<A extends ActionName> = (chunk: Actions[A]["chunk"], transfer?: ArrayBuffer[]) => void;
type Handler<A extends ActionName> = (
  doc: EngineDocument,
  args: Actions[A]["args"],
  sink: Sink<A>,
  engine: Engine,
) => { result: Actions[A]["result"]; transfer?: ArrayBuffer[] };

const handlers: { [A in ActionName]: Handler<A> } = {
  extract(doc, args, sink, engine) {
    sink({ type: "opened", pageCount: doc.pageCount });
    const pages = args.pages ?? Array.from({ length: doc.pageCount }, (_, i) => i + 1);
    for (const page of pages) {
      if (page < 1 || page > doc.pageCount) continue;
      let extracted: ExtractedPage;
      try {
        extracted = doc.extractPage(page - 1, args.withGeometry);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        sink({ type: "page-error", page, message });
        // An aborted engine serves nothing more: the rest is redone by a fresh one.
        if (engine.state.aborted) break;
        continue;
      }
      const g = extracted.geometry;
      const text = packPageText(extracted.text);
      const buffers = [text.lines.buffer];
      if (g) buffers.push(g.glyphBoxes.buffer, g.looseBoxes.buffer, g.origins.buffer, g.fontSizes.buffer);
      if (g) buffers.push(g.fontIndex.buffer, g.flags.buffer);
      sink({ type: "page", page: { text, geometry: g } }, buffers as ArrayBuffer[]);
    }
    return { result: { pageCount: doc.pageCount } };
  },
  render(doc, args) {
    if (!Number.isInteger(args.page) || args.page < 1 || args.page > doc.pageCount) {
      throw new CiteproofError(
        "PAGE_OUT_OF_RANGE",
        `page ${args.page} does not exist (the PDF has ${doc.pageCount} pages)`,
      );
    }
    const result = doc.renderRegion(args.page - 1, args.box, args.dpi, encoding(args), args.outlines);
    return { result, transfer: [result.png.buffer as ArrayBuffer] };
  },
  renderMany(doc, args) {
    if (!Number.isInteger(args.page) || args.page < 1 || args.page > doc.pageCount) {
      throw new CiteproofError(
        "PAGE_OUT_OF_RANGE",
        `page ${args.page} does not exist (the PDF has ${doc.pageCount} pages)`,
      );
    }
    const result = doc.renderRegions(args.page - 1, args.regions, encoding(args));
    return { result, transfer: result.map((r) => r.png.buffer as ArrayBuffer) };
  },
};

/** A zlib level from 0 to 9 for the PNG encoder, or its default; and the encoder. */
function encoding(args: { pngCompression?: number; fewestChannels?: boolean }) {
  const level = args.pngCompression;
  return {
    compression:
      Number.isInteger(level) && (level as number) >= 0 && (level as number) <= 9 ? level : undefined,
    fewestChannels: args.fewestChannels === true,
  };
}

async function serve(call: CallMessage): Promise<void> {
  let engine: Engine | undefined;
  try {
    engine = await engineReady();
    const doc = openHeld(engine, call.doc);
    const sink = (chunk: unknown, transfer?: ArrayBuffer[]) =>
      post({ id: call.id, type: "chunk", chunk }, transfer);
    const handler = handlers[call.action] as Handler<ActionName>;
    const { result, transfer } = handler(doc, call.args as never, sink as never, engine);
    // After an abort the call's pages past the failed one were not done: the main side redoes them.
    if (!engine.state.aborted)
      post({ id: call.id, type: "result", result, engineBytes: engine.memoryBytes() }, transfer);
  } catch (error) {
    const released = held?.key !== call.doc.key;
    const engineBytes = engine && !engine.state.aborted ? engine.memoryBytes() : undefined;
    post({ id: call.id, type: "error", error: toWire(error), released, engineBytes });
  }
  if (engine === undefined || engine.state.aborted) {
    ended = true;
    post({
      id: 0,
      type: "lost",
      message: `the engine aborted (${engine?.state.aborted ?? "it did not load"})`,
    });
    endAfterGrace(port);
  }
}

/** Set once the engine is lost: the worker answers nothing more. */
let ended = false;
let queue: Promise<void> = Promise.resolve();
port.on("message", (message: CallMessage | CloseMessage) => {
  if (ended) return;
  if ("close" in message) {
    queue = queue.then(() => {
      held?.doc.close();
      held = undefined;
      ended = true;
      endAfterGrace(port);
    });
    return;
  }
  queue = queue.then(() => (ended ? undefined : serve(message)));
});
