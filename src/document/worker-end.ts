/**
 * How an engine worker (extraction or rendering) ends, on both sides of the thread boundary.
 *
 * An idle worker is asked to end rather than terminated: terminating a thread while V8 may still be
 * compiling for it in the background can bring the whole process down on Node 20. And on Node 20 a
 * thread that ends while V8 still optimizes its code in the background can hang for good when that
 * compiler needs a garbage collection (nodejs/node#54918): the ending thread waits for the compiler,
 * the compiler for a collection only that thread can run. So the worker first idles in its event
 * loop a moment, letting such work (and its collections) finish, and only then closes its port.
 */
import type { MessagePort, Worker } from "node:worker_threads";

/** Asks a worker to close its document and end. */
export interface CloseRequest {
  close: true;
}

/** How long a worker stays idle in its event loop after a close request before it ends. */
export const CLOSE_GRACE_MS = 150;

/** How long the main thread waits for an asked worker to end before it terminates it. */
const END_WAIT_MS = 1000;

/** Worker side: ends after the grace period. */
export function endAfterGrace(port: MessagePort): void {
  setTimeout(() => port.close(), CLOSE_GRACE_MS);
}

/** Main-thread side: asks an idle worker to end, and terminates it if it has not within a second. */
export async function askToEnd(worker: Worker): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  worker.postMessage({ close: true } satisfies CloseRequest);
  const timer = setTimeout(() => void worker.terminate(), END_WAIT_MS);
  await exited;
  clearTimeout(timer);
}

/** Main-thread side: a worker that ends by itself (its engine aborted) is terminated if it has not within a second. */
export function endWithoutAsking(worker: Worker): void {
  const timer = setTimeout(() => void worker.terminate(), END_WAIT_MS);
  timer.unref();
  worker.once("exit", () => clearTimeout(timer));
  worker.unref();
}
