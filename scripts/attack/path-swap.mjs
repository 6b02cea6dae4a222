#!/usr/bin/env node
// Swaps the name `<dir>/<name>` between a symlink to an inside folder and a symlink to an outside
// folder, as fast as it can, until killed. Each swap is one rename(2) of a fresh symlink over the
// name, so the name always exists and always points somewhere. Writes "ready" after the first swap.
// Usage: path-swap.mjs dir name inside outside
import { renameSync, rmSync, symlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

const [dir, name, inside, outside] = process.argv.slice(2);
const target = join(dir, name);
const tmp = join(dir, `.swap-${process.pid}`);
for (let i = 0; ; i++) {
  rmSync(tmp, { force: true });
  symlinkSync(i % 2 === 0 ? outside : inside, tmp);
  renameSync(tmp, target);
  // Written synchronously: the loop never yields, so an asynchronous write would never leave.
  if (i === 0) writeSync(1, "ready\n");
}
