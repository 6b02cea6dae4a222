/**
 * The main thread's side of the extraction worker: one long-lived worker per process, reused by
 * every extraction, each request under its own deadline. An idle worker does not keep the process
 * alive. Terminating a worker while the engine may still be compiling in the background can bring
 * the whole process down, so the worker is terminated only when a deadline passes.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { CiteproofError, ERROR_CODES, type ErrorCode } from "../errors.js";
import type { PdfBytes } from "../source/file.js";
import type { WorkerMessage, WorkerRequest, WorkerSetup } from "./extract-worker.js";
import { engineMemoryBytes, maxMemoryMb } from "./memory-limit.js";
import type { PageGeometry, PageText } from "./model.js";
import { unpackPageText } from "./page-record.js";
import { askToEnd, endWithoutAsking } from "./worker-end.js";
import { startWorker } from "./worker-flags.js";

export interface ExtractionRequest {
  source: PdfBytes;
  password?: string;
  pages?: number[];
  withGeometry: boolean;
}

export type PageSink = (
  page: { text: PageText; geometry?: PageGeometry } | { failed: number; message: string },
) => void;

interface Pending {
  request: ExtractionRequest;
  /** Pages delivered so far (extracted or failed): an engine lost midway is replaced for the rest. */
  delivered: Set<number>;
  onPage: PageSink;
  resolve: (result: { pageCount: number }) => void;
  reject: (error: CiteproofError) => void;
  timer: NodeJS.Timeout;
  pageCount?: number;
  /** A whole-document extraction: the worker is let go after it, see settle(). */
  whole: boolean;
}

function workerUrl(): URL {
  const here = new URL("./extract-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  // Running from TypeScript sources (tests): use the built worker.
  return new URL(import.meta.url.replace(/\/src\/document\/[^/]+$/, "/dist/document/extract-worker.js"));
}

class ExtractionWorker {
  private worker: Worker | undefined;
  private heldKey: string | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  extract(request: ExtractionRequest, timeoutMs: number, onPage: PageSink): Promise<{ pageCount: number }> {
    // A bad memory setting is refused before anything starts.
    maxMemoryMb();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.stop(
          id,
          new CiteproofError(
            "EXTRACTION_TIMEOUT",
            `extraction did not finish within ${timeoutMs} ms and was stopped`,
            { option: "timeout_ms", limit: timeoutMs },
          ),
        );
      }, timeoutMs);
      const whole = request.pages === undefined;
      this.pending.set(id, { request, delivered: new Set(), onPage, resolve, reject, timer, whole });
      this.send(id, request.pages);
    });
  }

  private send(id: number, pages: number[] | undefined): void {
    const p = this.pending.get(id);
    if (!p) return;
    const worker = this.start();
    const { request } = p;
    const key = `${request.source.sha256}\u0000${request.password ?? ""}`;
    const message: WorkerRequest = {
      id,
      key,
      password: request.password,
      pages,
      withGeometry: request.withGeometry,
    };
    // The bytes are copied across (not transferred): the caller keeps its snapshot.
    if (this.heldKey !== key) {
      message.bytes = request.source.bytes;
      this.heldKey = key;
    }
    worker.ref();
    worker.postMessage(message);
  }

  /**
   * The engine aborted: the worker ends by itself; a fresh one takes every request's pages that
   * were not delivered, under the same deadlines.
   */
  private replace(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.heldKey = undefined;
    endWithoutAsking(worker);
    for (const [id, p] of [...this.pending].sort((a, b) => a[0] - b[0])) {
      if (p.pageCount === undefined) {
        this.send(id, p.request.pages);
        continue;
      }
      const count = p.pageCount;
      const asked = p.request.pages ?? Array.from({ length: count }, (_, i) => i + 1);
      const rest = asked.filter((page) => page >= 1 && page <= count && !p.delivered.has(page));
      if (rest.length > 0) this.send(id, rest);
      else this.settle(id);
    }
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(workerUrl(), {
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
      stdout: false,
      // Not piped: a piped stream that was ever read keeps the process alive as long as the worker.
      stderr: false,
      workerData: { engineMemoryBytes: engineMemoryBytes(maxMemoryMb()) } satisfies WorkerSetup,
    });
    worker.on("message", (message: WorkerMessage) => {
      // A worker that was replaced speaks for nothing any more.
      if (this.worker !== worker) return;
      if (message.type === "lost") this.replace(worker);
      else this.receive(message);
    });
    worker.on("error", (error) => {
      if (this.worker === worker) this.lost(`the extraction worker failed: ${error.message.split("\n")[0]}`);
    });
    worker.on("exit", (code) => {
      if (this.worker === worker) this.lost(`the extraction worker exited with code ${code}`);
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private receive(message: WorkerMessage): void {
    const p = this.pending.get(message.id);
    if (!p) return;
    switch (message.type) {
      case "opened":
        p.pageCount = message.pageCount;
        return;
      case "page":
        p.delivered.add(message.page.text.page);
        try {
          const text = unpackPageText(message.page.text, message.page.text.page);
          if (!text)
            throw new CiteproofError("INTERNAL", "the extraction worker sent a page of the wrong shape");
          p.onPage({ text, geometry: message.page.geometry });
        } catch (error) {
          this.settle(
            message.id,
            error instanceof CiteproofError ? error : new CiteproofError("INTERNAL", String(error)),
          );
        }
        return;
      case "page-error":
        p.delivered.add(message.page);
        p.onPage({ failed: message.page, message: message.message });
        return;
      case "done":
        this.settle(message.id);
        return;
      case "error": {
        // The worker no longer holds a document that failed.
        this.heldKey = undefined;
        const code = (ERROR_CODES as readonly string[]).includes(message.code)
          ? (message.code as ErrorCode)
          : "EXTRACTION_FAILED";
        this.settle(message.id, new CiteproofError(code, message.message));
        return;
      }
    }
  }

  private settle(id: number, error?: CiteproofError): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (this.pending.size === 0) {
      this.worker?.unref();
      // After a whole document the engine's memory is at its largest and the next request, for the
      // same document, will find its pages in the cache: let the worker go (gracefully) to free it.
      if (p.whole) void this.close();
    }
    if (error) p.reject(error);
    else p.resolve({ pageCount: p.pageCount ?? 0 });
  }

  /** A deadline passed: terminate the worker; the request fails with `error`, any other with a note. */
  private stop(id: number, error: CiteproofError): void {
    const worker = this.worker;
    this.worker = undefined;
    this.heldKey = undefined;
    this.settle(id, error);
    this.failAll("the extraction worker was stopped at another extraction's deadline");
    if (worker) void worker.terminate();
  }

  private lost(message: string): void {
    this.worker = undefined;
    this.heldKey = undefined;
    this.failAll(message);
  }

  private failAll(message: string): void {
    for (const id of [...this.pending.keys()])
      this.settle(id, new CiteproofError("EXTRACTION_FAILED", message));
  }

  /** Ends an idle worker gracefully (tests and long-running hosts call this before they finish). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.heldKey = undefined;
    if (!worker) return;
    if (this.pending.size > 0) {
      this.failAll("the extraction worker was closed");
      await worker.terminate();
      return;
    }
    await askToEnd(worker);
  }
}

const shared = new ExtractionWorker();

export function extractInWorker(
  request: ExtractionRequest,
  timeoutMs: number,
  onPage: PageSink,
): Promise<{ pageCount: number }> {
  return shared.extract(request, timeoutMs, onPage);
}

export function closeExtractionWorker(): Promise<void> {
  return shared.close();
}
