/**
 * The engine client (the main thread's side of the engine worker): one long-lived worker per process
 * that every extraction and render goes through, each call under its own deadline. An idle worker
 * does not keep the process alive. A deadline that passes terminates the worker; an engine that
 * aborts ends its worker; either way the other calls in flight are redone on a fresh worker (an
 * extraction only for the pages it had not received). A worker lost any other way fails the calls
 * in flight with EXTRACTION_FAILED.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { CiteproofError, type ErrorCode } from "../errors.js";
import type { PdfBytes } from "../source/file.js";
import {
  type ActionName,
  type Actions,
  type CallMessage,
  fromWire,
  type ReplyMessage,
  type WorkerSetup,
} from "./engine-protocol.js";
import { engineMemoryBytes, maxMemoryMb } from "./memory-limit.js";
import { type EngineTier, NO_TUNING, once, processTuning } from "./process-tuning.js";
import { askToEnd, endWithoutAsking } from "./worker-end.js";
import { startWorker } from "./worker-start.js";

export interface CallOptions<A extends ActionName> {
  password?: string;
  timeoutMs: number;
  /** The error the call ends with when its deadline passes. */
  timeoutError: () => CiteproofError;
  /** The code of an error the worker sends without one of ours. */
  fallbackCode: ErrorCode;
  onChunk?: (chunk: Actions[A]["chunk"]) => void;
  /**
   * The arguments to redo the call with on a fresh worker after the engine was lost, or undefined
   * when nothing is left to do (the call then ends with `done()`). Without it the call is redone whole.
   */
  resume?: () => { args: Actions[A]["args"] } | { done: Actions[A]["result"] };
  /** Let the worker go once this call ends and nothing else is pending (its memory is at its largest). */
  releaseAfter?: boolean;
  /**
   * The call reads a few pages: on a fresh worker, the process's tuning (process-tuning.ts) is told a
   * short run starts and the engine is to compile with the baseline tier.
   */
  shortRun?: boolean;
}

interface Pending {
  action: ActionName;
  source: PdfBytes;
  args: unknown;
  options: CallOptions<ActionName>;
  resolve: (result: unknown) => void;
  reject: (error: CiteproofError) => void;
  timer: NodeJS.Timeout;
  /** Ends the short run this call (a fresh worker's first) told the process's tuning of. */
  endShortRun?: () => void;
}

function workerUrl(): URL {
  const here = new URL("./engine-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  // Running from TypeScript sources (tests): use the built worker.
  return new URL(import.meta.url.replace(/\/src\/document\/[^/]+$/, "/dist/document/engine-worker.js"));
}

/**
 * Past this size the engine's memory is let go once no call is pending: WebAssembly memory never
 * shrinks, so a worker kept after one hostile or huge page (a resident `serve`, an MCP server) would
 * hold it for good. An ordinary paper leaves the engine near 20 MiB; starting a worker again costs
 * well under a second.
 */
export const KEEP_ENGINE_BYTES = 64 * 2 ** 20;

export class EngineClient {
  private worker: Worker | undefined;
  /** Whether the worker's engine memory has grown past KEEP_ENGINE_BYTES. */
  private grown = false;
  /** Holds taken (hold()): while any is, a grown worker is kept between calls. */
  private holds = 0;
  /** Whether the worker's engine was compiled for a short run under a process tuning (baseline tier only). */
  private baselineOnly = false;
  private heldKey: string | undefined;
  /** Whether the worker has been sent its first call (which compiles its engine). */
  private engineLoading = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** How many workers this client has started: one, unless a deadline or an abort replaced it. */
  workersStarted = 0;

  constructor(private readonly engineMemory: () => number = () => engineMemoryBytes(maxMemoryMb())) {}

  call<A extends ActionName>(
    action: A,
    source: PdfBytes,
    args: Actions[A]["args"],
    options: CallOptions<A>,
  ): Promise<Actions[A]["result"]> {
    // A bad memory setting is refused before anything starts.
    const memory = this.engineMemory();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.expire(id), options.timeoutMs);
      this.pending.set(id, {
        action,
        source,
        args,
        options: options as unknown as CallOptions<ActionName>,
        resolve: resolve as (result: unknown) => void,
        reject,
        timer,
      });
      this.send(id, args, memory);
    });
  }

  /**
   * Keeps the worker between calls, its memory grown or not, until the function returned is called
   * (once is enough): a run of large renders (OCR's pages, then its crops) then starts one worker and
   * sends the document once, rather than once a render. The last hold's end lets a grown worker go.
   * An idle worker whose engine the process's tuning compiled on the baseline tier alone (a short
   * run's) is let go first: it renders a 300 dpi page at about half the speed of one that tiers up.
   */
  hold(): () => void {
    if (this.holds === 0 && this.baselineOnly && this.pending.size === 0) void this.close();
    this.holds++;
    return once(() => {
      this.holds--;
      if (this.holds === 0 && this.grown && this.pending.size === 0) void this.close();
    });
  }

  /**
   * Starts the worker ahead of the first call (its thread and code load while the caller still
   * works), when none is running. Its engine is compiled when the first call comes.
   */
  prestart(): void {
    this.start(this.engineMemory());
  }

  private send(id: number, args: unknown, memory = this.engineMemory()): void {
    const p = this.pending.get(id);
    if (!p) return;
    const worker = this.start(memory);
    if (!this.engineLoading) {
      this.engineLoading = true;
      const tier = p.options.shortRun === true ? "baseline" : "optimizing";
      this.baselineOnly = tier === "baseline" && processTuning() !== NO_TUNING;
      engineCompiles(worker, tier);
      if (p.options.shortRun === true) p.endShortRun ??= once(processTuning().shortRun());
    }
    const key = `${p.source.sha256}\u0000${p.options.password ?? ""}`;
    const message = {
      id,
      action: p.action,
      doc: { key, password: p.options.password },
      args,
    } as CallMessage;
    // The bytes are copied across (not transferred): the caller keeps its snapshot.
    if (this.heldKey !== key) {
      message.doc.bytes = p.source.bytes;
      this.heldKey = key;
    }
    worker.ref();
    worker.postMessage(message);
  }

  private start(memory: number): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(workerUrl(), {
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
      stdout: false,
      // Not piped: a piped stream that was ever read keeps the process alive as long as the worker.
      stderr: false,
      workerData: { engineMemoryBytes: memory } satisfies WorkerSetup,
    });
    worker.on("message", (message: ReplyMessage) => {
      // A worker that was replaced speaks for nothing any more.
      if (this.worker === worker) this.receive(message);
    });
    worker.on("error", (error) => {
      if (this.worker === worker) this.lost(`the engine worker failed: ${error.message.split("\n")[0]}`);
    });
    worker.on("exit", (code) => {
      if (this.worker === worker) this.lost(`the engine worker exited with code ${code}`);
    });
    worker.unref();
    this.worker = worker;
    this.engineLoading = false;
    this.workersStarted++;
    workersStartedInProcess++;
    return worker;
  }

  private receive(message: ReplyMessage): void {
    if (message.type === "lost") {
      const worker = this.worker;
      this.detach();
      if (worker) endWithoutAsking(worker);
      this.redoAll();
      return;
    }
    const p = this.pending.get(message.id);
    if (!p) return;
    switch (message.type) {
      case "chunk":
        try {
          p.options.onChunk?.(message.chunk as never);
        } catch (error) {
          this.settle(
            message.id,
            error instanceof CiteproofError ? error : new CiteproofError("INTERNAL", String(error)),
          );
        }
        return;
      case "result":
        this.noteEngineBytes(message.engineBytes);
        this.settle(message.id, undefined, message.result);
        return;
      case "error":
        if (message.released) this.heldKey = undefined;
        this.noteEngineBytes(message.engineBytes);
        this.settle(message.id, fromWire(message.error, p.options.fallbackCode));
        return;
    }
  }

  private noteEngineBytes(bytes: number | undefined): void {
    if (bytes !== undefined && bytes > KEEP_ENGINE_BYTES) this.grown = true;
  }

  /** Redoes every call in flight on a fresh worker, in the order they were made. */
  private redoAll(): void {
    for (const id of [...this.pending.keys()].sort((a, b) => a - b)) {
      const p = this.pending.get(id)!;
      const next = p.options.resume?.() ?? { args: p.args };
      if ("done" in next) this.settle(id, undefined, next.done);
      else this.send(id, next.args);
    }
  }

  private settle(id: number, error?: CiteproofError, result?: unknown): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    p.endShortRun?.();
    if (this.pending.size === 0) {
      this.worker?.unref();
      if (p.options.releaseAfter || (this.grown && this.holds === 0)) void this.close();
    }
    if (error) p.reject(error);
    else p.resolve(result);
  }

  /** A deadline passed: the call fails, the worker is terminated, the other calls are redone. */
  private expire(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    const worker = this.worker;
    this.detach();
    this.settle(id, p.options.timeoutError());
    if (worker) void worker.terminate();
    this.redoAll();
  }

  private detach(): void {
    this.worker = undefined;
    this.baselineOnly = false;
    this.grown = false;
    this.heldKey = undefined;
  }

  private lost(message: string): void {
    this.detach();
    for (const id of [...this.pending.keys()])
      this.settle(id, new CiteproofError("EXTRACTION_FAILED", message));
  }

  /** Ends an idle worker gracefully (tests and long-running hosts call this before they finish). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.detach();
    if (!worker) return;
    if (this.pending.size > 0) {
      this.lost("the engine worker was closed");
      await worker.terminate();
      return;
    }
    await askToEnd(worker);
  }
}

/** Tells the process's tuning a worker compiles its engine, until its first message, error or exit. */
function engineCompiles(worker: Worker, tier: EngineTier): void {
  lastTier = tier;
  const compiled = once(processTuning().engineCompiles(tier));
  worker.once("message", compiled);
  worker.once("error", compiled);
  worker.once("exit", compiled);
}

let lastTier: EngineTier | undefined;

/** The tier the last worker given its first call was to compile the engine with. */
export function lastWorkerTier(): EngineTier | undefined {
  return lastTier;
}

let shared: EngineClient | undefined;
let workersStartedInProcess = 0;

/** How many engine workers every client of this process has started so far. */
export function engineWorkersStarted(): number {
  return workersStartedInProcess;
}

/** The process's engine: one worker for every extraction and render. */
export function engine(): EngineClient {
  shared ??= new EngineClient();
  return shared;
}

/** Ends the engine worker (it otherwise idles without holding the process open). */
export async function closeEngine(): Promise<void> {
  await shared?.close();
}
