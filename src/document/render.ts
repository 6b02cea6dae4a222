/**
 * Rendering a page or a region of it to PNG through the engine's renderer and PNG encoder, in a
 * worker thread under a deadline: a hostile page stops the worker, never the caller.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { CiteproofError, ERROR_CODES, type ErrorCode } from "../errors.js";
import type { PdfBytes } from "../source/file.js";
import { engineMemoryBytes, maxMemoryMb } from "./memory-limit.js";
import type { Box } from "./model.js";
import type { RenderTransform } from "./render-transform.js";
import type { RenderReply, RenderRequest, RenderSetup } from "./render-worker.js";
import { askToEnd, endWithoutAsking } from "./worker-end.js";
import { startWorker } from "./worker-flags.js";

export {
  deviceBoxToUser,
  deviceToUser,
  type RenderTransform,
  userBoxToDevice,
  userToDevice,
} from "./render-transform.js";

export const DEFAULT_RENDER_DPI = 150;
export const MIN_RENDER_DPI = 18;
export const MAX_RENDER_DPI = 1200;
export const DEFAULT_RENDER_TIMEOUT_MS = 30_000;

export interface RenderOptions {
  password?: string;
  /** Deadline for this render in milliseconds (the first render also loads the engine). */
  timeoutMs?: number;
}

export interface RenderedRegion {
  png: Uint8Array;
  widthPx: number;
  heightPx: number;
  /** Maps the image's pixels to default user space and back (deviceToUser, userToDevice). */
  transform: RenderTransform;
}

/**
 * Renders `region` (a box in default user space, or the whole visible page) of a 1-based page.
 * A box reaching past the page is clipped to it; the transform says what the image shows.
 */
export async function renderRegion(
  source: PdfBytes,
  page: number,
  region: Box | "page",
  dpi: number,
  opts: RenderOptions = {},
): Promise<RenderedRegion> {
  if (!Number.isFinite(dpi) || dpi < MIN_RENDER_DPI || dpi > MAX_RENDER_DPI) {
    throw new CiteproofError(
      "USAGE",
      `dpi must be a number from ${MIN_RENDER_DPI} to ${MAX_RENDER_DPI} (got ${dpi})`,
    );
  }
  if (!Number.isInteger(page) || page < 1) {
    throw new CiteproofError("PAGE_OUT_OF_RANGE", `page ${page} does not exist (pages count from 1)`);
  }
  const box = region === "page" ? undefined : { ...region };
  if (box) {
    const values = [box.left, box.bottom, box.right, box.top];
    if (!values.every((v) => typeof v === "number" && Number.isFinite(v))) {
      throw new CiteproofError("BOX_INVALID", `the box ${values.join(",")} is not made of finite numbers`);
    }
  }
  const result = await renderer().render(source, page, box, dpi, opts);
  return { png: result.png, widthPx: result.widthPx, heightPx: result.heightPx, transform: result.transform };
}

/** Stops the render worker now (it otherwise idles without holding the process open). */
export async function closeRenderer(): Promise<void> {
  const current = shared;
  shared = undefined;
  await current?.close();
}

let shared: Renderer | undefined;

function renderer(): Renderer {
  shared ??= new Renderer();
  return shared;
}

function workerUrl(): URL {
  const here = new URL("./render-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  // Running from TypeScript sources (tests): use the built worker.
  return new URL(import.meta.url.replace(/\/src\/document\/[^/]+$/, "/dist/document/render-worker.js"));
}

interface Pending {
  resolve: (value: Extract<RenderReply, { type: "rendered" }>["result"]) => void;
  reject: (error: CiteproofError) => void;
  timer: NodeJS.Timeout;
}

/** One worker, one render at a time; requests queue behind each other. */
class Renderer {
  private worker: Worker | undefined;
  private heldKey: string | undefined;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private queue: Promise<unknown> = Promise.resolve();

  render(
    source: PdfBytes,
    page: number,
    box: Box | undefined,
    dpi: number,
    opts: RenderOptions,
  ): Promise<Extract<RenderReply, { type: "rendered" }>["result"]> {
    const run = () => this.renderNow(source, page, box, dpi, opts);
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private renderNow(
    source: PdfBytes,
    page: number,
    box: Box | undefined,
    dpi: number,
    opts: RenderOptions,
  ): Promise<Extract<RenderReply, { type: "rendered" }>["result"]> {
    const worker = this.start();
    const key = `${source.sha256}\u0000${opts.password ?? ""}`;
    const id = this.nextId++;
    const request: RenderRequest = { id, key, password: opts.password, page, box, dpi };
    if (this.heldKey !== key) {
      // A copy: the caller's bytes stay usable.
      request.bytes = source.bytes.slice();
      this.heldKey = key;
    }
    const timeoutMs = opts.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.stop();
        reject(
          new CiteproofError(
            "RENDER_TIMEOUT",
            `rendering page ${page} did not finish within ${timeoutMs} ms and was stopped`,
            { option: "timeout_ms", limit: timeoutMs },
          ),
        );
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.ref();
      worker.postMessage(request, request.bytes ? [request.bytes.buffer as ArrayBuffer] : []);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(workerUrl(), {
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
      stdout: false,
      // Not piped: a piped stream that was ever read keeps the process alive as long as the worker.
      stderr: false,
      workerData: { engineMemoryBytes: engineMemoryBytes(maxMemoryMb()) } satisfies RenderSetup,
    });
    worker.on("message", (reply: RenderReply) => {
      if (reply.type === "error" && reply.lost && this.worker === worker) {
        // The engine aborted: the worker ends by itself, and a fresh one serves the next render.
        this.worker = undefined;
        this.heldKey = undefined;
        endWithoutAsking(worker);
      }
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      clearTimeout(p.timer);
      if (this.pending.size === 0) worker.unref();
      if (reply.type === "rendered") {
        p.resolve(reply.result);
      } else {
        // A document that did not open is not held.
        if (reply.code !== "PAGE_OUT_OF_RANGE" && reply.code !== "BOX_INVALID") this.heldKey = undefined;
        const code = (ERROR_CODES as readonly string[]).includes(reply.code)
          ? (reply.code as ErrorCode)
          : "INTERNAL";
        p.reject(new CiteproofError(code, reply.message));
      }
    });
    const fail = (message: string) => {
      this.worker = undefined;
      this.heldKey = undefined;
      for (const [, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new CiteproofError("INTERNAL", message));
      }
      this.pending.clear();
    };
    worker.on("error", (error) => fail(`the render worker failed: ${error.message.split("\n")[0]}`));
    worker.on("exit", (code) => {
      if (this.worker === worker) fail(`the render worker exited with code ${code}`);
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    this.heldKey = undefined;
    if (worker) void worker.terminate();
  }

  /**
   * Ends the worker: an idle one is asked to finish (terminating a thread while the engine may still
   * be compiling in the background can bring the whole process down); one that does not finish
   * within a second, or is busy, is terminated.
   */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.heldKey = undefined;
    if (!worker) return;
    if (this.pending.size > 0) {
      await worker.terminate();
      return;
    }
    await askToEnd(worker);
  }
}
