/**
 * Tool calls run on worker threads, so the calls of several clients use several cores: the server's
 * own thread speaks HTTP and MCP, each worker runs one call at a time with the very code the server
 * runs in its thread (`callTool`), so a pooled call's answer is the in-thread one. Each worker keeps
 * its own in-memory views and results; the disk cache is shared. A call stopped (its deadline passed,
 * its client gone) ends its worker at once; a fresh one is started when a call needs it.
 *
 * A worker sends its answer's JSON text only: the structured content is that text parsed (the SDK
 * sends it as JSON), so the document is not copied between threads twice.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startWorker } from "../document/worker-start.js";
import type { ServerEnv } from "./server.js";

/** What a worker is handed for one call. */
export interface PooledTask {
  name: string;
  args: unknown;
  env: ServerEnv;
}

/** A worker's answer: the call's result without its structured content, whether it had one, its thread. */
export interface PooledAnswer {
  result: CallToolResult;
  structured: boolean;
  threadId: number;
}

interface Job {
  task: PooledTask;
  resolve: (result: CallToolResult) => void;
  reject: (error: Error) => void;
  signal: AbortSignal;
  stop: () => void;
}

export class CallPool {
  private readonly live = new Set<Worker>();
  private readonly idle: Worker[] = [];
  private readonly waiting: Job[] = [];
  private readonly running = new Map<Worker, Job>();
  private closed = false;
  /** The threads that have answered calls (a worker's thread id). */
  readonly servedBy = new Set<number>();

  /** `threads`: workers running calls at once (1 or more); calls beyond wait their turn. */
  constructor(readonly threads: number) {}

  /** Runs a call on a worker; rejects (and the worker ends) once `signal` aborts. */
  run(task: PooledTask, signal: AbortSignal): Promise<CallToolResult> {
    if (signal.aborted || this.closed) return Promise.reject(stopped());
    return new Promise((resolve, reject) => {
      const job: Job = { task, resolve, reject, signal, stop: () => this.stop(job) };
      signal.addEventListener("abort", job.stop, { once: true });
      this.waiting.push(job);
      this.next();
    });
  }

  /** Ends the workers; calls still running or waiting are stopped. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of [...this.waiting, ...this.running.values()]) job.stop();
    await Promise.all([...this.live].map((worker) => this.retire(worker)));
  }

  private next(): void {
    while (this.waiting.length > 0 && !this.closed) {
      const worker = this.idle.pop() ?? (this.live.size < this.threads ? this.start() : undefined);
      if (!worker) return;
      const job = this.waiting.shift() as Job;
      this.running.set(worker, job);
      worker.postMessage(job.task);
    }
  }

  private start(): Worker {
    const worker = startWorker(workerUrl(), {});
    this.live.add(worker);
    worker.on("message", (answer: PooledAnswer) => {
      const job = this.running.get(worker);
      if (!job) return;
      this.running.delete(worker);
      this.idle.push(worker);
      job.signal.removeEventListener("abort", job.stop);
      this.servedBy.add(answer.threadId);
      const { result } = answer;
      if (answer.structured)
        result.structuredContent = JSON.parse((result.content[0] as { text: string }).text);
      job.resolve(result);
      this.next();
    });
    const failed = (error: Error) => {
      const job = this.running.get(worker);
      void this.retire(worker);
      if (job) {
        job.signal.removeEventListener("abort", job.stop);
        job.reject(error);
      }
      this.next();
    };
    worker.on("error", failed);
    worker.on("exit", (code) => failed(new Error(`a call worker stopped (exit code ${code})`)));
    return worker;
  }

  /** A waiting job leaves the queue; a running one has its worker ended. */
  private stop(job: Job): void {
    job.signal.removeEventListener("abort", job.stop);
    const at = this.waiting.indexOf(job);
    if (at >= 0) this.waiting.splice(at, 1);
    for (const [worker, running] of this.running) if (running === job) void this.retire(worker);
    job.reject(stopped());
    this.next();
  }

  /** Forgets a worker and ends it. */
  private async retire(worker: Worker): Promise<void> {
    if (!this.live.delete(worker)) return;
    this.running.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    worker.removeAllListeners();
    worker.on("error", () => {});
    await worker.terminate();
  }
}

function stopped(): Error {
  return new Error("the call was stopped");
}

function workerUrl(): URL {
  const here = new URL("./call-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  // Running from TypeScript sources (tests): use the built worker.
  return new URL(import.meta.url.replace(/\/src\/mcp\/[^/]+$/, "/dist/mcp/call-worker.js"));
}
