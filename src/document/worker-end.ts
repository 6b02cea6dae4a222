/**
 * How an engine worker ends. On Node 20 a thread that ends while V8 still optimizes its code in the
 * background can hang for good when that compiler needs a garbage collection (nodejs/node#54918):
 * the ending thread waits for the compiler, the compiler for a collection only that thread can run.
 * So the worker first idles in its event loop a moment, letting such work (and its collections)
 * finish, and only then closes its port.
 */
import type { MessagePort } from "node:worker_threads";

/** How long a worker stays idle in its event loop after a close request before it ends. */
export const CLOSE_GRACE_MS = 150;

export function endAfterGrace(port: MessagePort): void {
  setTimeout(() => port.close(), CLOSE_GRACE_MS);
}
