#!/usr/bin/env node
// One waiter of the many-waiter lock trials. For each trial t it waits for `<dir>/go-<t>`, takes the
// session lock, and inside it claims the critical section by creating `<dir>/inside` exclusively
// (an existing one means two holders at once), bumps `<dir>/count`, and leaves. It writes
// `<dir>/done-<t>-<id>` when through. Needs a built dist/. Usage: lock-waiter.mjs dir id trials
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withSessionLock } from "../../dist/session/lock.js";

const [dir, id, trials] = process.argv.slice(2);
const session = join(dir, "session");
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
for (let t = 0; t < Number(trials); t++) {
  while (!existsSync(join(dir, `go-${t}`))) await pause(1);
  let overlap = false;
  let error = "";
  try {
    await withSessionLock(
      session,
      async () => {
        const inside = join(dir, "inside");
        try {
          closeSync(openSync(inside, "wx"));
        } catch {
          overlap = true;
        }
        const count = Number(readFileSync(join(dir, "count"), "utf8"));
        await pause(Math.random() < 0.5 ? 0 : 1);
        writeFileSync(join(dir, "count"), String(count + 1));
        if (!overlap) rmSync(inside, { force: true });
      },
      20_000,
    );
  } catch (e) {
    error = e?.code ?? String(e);
  }
  // Written whole under another name first: the coordinator polls for the final name.
  const done = join(dir, `done-${t}-${id}`);
  writeFileSync(`${done}.tmp`, JSON.stringify({ overlap, error }));
  renameSync(`${done}.tmp`, done);
}
