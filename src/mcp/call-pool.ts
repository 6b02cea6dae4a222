/**
 * Tool calls run on worker threads, so the calls of several clients use several cores: the server's
 * own thread speaks HTTP and MCP, each worker runs one call at a time with the very code the server
 * runs in its thread (`callTool`), so a pooled call's answer is the one an in-thread call gives. Each
 * worker keeps its own in-memory views and results; the disk cache is shared. A call stopped (its
 * deadline passed, its client gone) ends its worker at once; a fresh one takes its place.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ServerEnv } from "./server.js";

/** What a worker is handed for one call. */
export interface PooledTask {
  name: string;
  args: unknown;
  env: ServerEnv;
}

/** A worker's answer: the call's result, and which thread ran it. */
export interface PooledAnswer {
  result: CallToolResult;
  threadId: number;
}

interface TaskRunner {
  run(task: PooledTask, options: { signal: AbortSignal }): Promise<PooledAnswer>;
  destroy(): Promise<void>;
}

export class CallPool {
  private runner: Promise<TaskRunner> | undefined;
  /** The threads that have answered calls (a worker's thread id). */
  readonly servedBy = new Set<number>();

  /** `threads`: workers running calls at once (1 or more); calls beyond wait their turn. */
  constructor(readonly threads: number) {}

  /** Runs a call on a worker; rejects (and the worker ends) once `signal` aborts. */
  async run(task: PooledTask, signal: AbortSignal): Promise<CallToolResult> {
    const answer = await (await this.pool()).run(task, { signal });
    this.servedBy.add(answer.threadId);
    return answer.result;
  }

  /** Ends the workers; calls still running are stopped. */
  async close(): Promise<void> {
    const runner = this.runner;
    this.runner = undefined;
    if (runner) await (await runner).destroy();
  }

  private pool(): Promise<TaskRunner> {
    this.runner ??= import("tinypool").then(
      ({ default: Tinypool }) =>
        new Tinypool({
          filename: workerUrl().href,
          // A worker's views and results serve the next call: none is ended for being idle.
          minThreads: this.threads,
          maxThreads: this.threads,
        }) as unknown as TaskRunner,
    );
    return this.runner;
  }
}

function workerUrl(): URL {
  const here = new URL("./call-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  // Running from TypeScript sources (tests): use the built worker.
  return new URL(import.meta.url.replace(/\/src\/mcp\/[^/]+$/, "/dist/mcp/call-worker.js"));
}
