#!/usr/bin/env node
// One waiter of the many-waiter lock trials, driven by its parent over IPC. On `{ go: t }` it takes
// the session lock and, inside it, tells the parent it entered, reads the shared count, pauses a
// little, writes the count back one higher and tells the parent it leaves; every message waits for
// the parent's answer, so the parent sees the entries in the order they happened. Two waiters inside
// at once show as an overlap, and their read-modify-writes lose a count. The count lives in the
// parent, not in a file: a file rewritten in place waits for the disk's writeback of its previous
// contents, which under load stalls the holder for seconds. Needs a built dist/.
// Usage (as a child with an IPC channel): lock-waiter.mjs session-dir lock-timeout-ms
import { withSessionLock } from "../../dist/session/lock.js";

const [session, timeoutMs] = process.argv.slice(2);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pending = [];
const ask = (message) =>
  new Promise((resolve) => {
    pending.push(resolve);
    process.send(message);
  });

process.on("message", async (message) => {
  if (message.answer !== undefined) {
    pending.shift()(message.answer);
    return;
  }
  if (message.go === undefined) return;
  let error = "";
  try {
    await withSessionLock(
      session,
      async () => {
        const count = await ask({ enter: message.go });
        await pause(Math.random() < 0.5 ? 0 : 1);
        await ask({ leave: message.go, count: count + 1 });
      },
      Number(timeoutMs),
    );
  } catch (e) {
    error = e?.code ?? String(e);
  }
  process.send({ done: message.go, error });
});
process.on("disconnect", () => process.exit(0));
process.send({ ready: true });
