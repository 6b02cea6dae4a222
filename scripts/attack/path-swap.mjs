#!/usr/bin/env node
// Swaps the name `<dir>/<name>` between a symlink to an inside folder and a symlink to an outside
// folder, as fast as it can, until killed. Each swap is one rename(2) of a fresh symlink over the
// name, so the name always exists and always points somewhere. Usage: path-swap.mjs dir name inside outside
import { renameSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";

const [dir, name, inside, outside] = process.argv.slice(2);
const target = join(dir, name);
const tmp = join(dir, `.swap-${process.pid}`);
let flip = false;
let told = false;
process.on("SIGTERM", () => process.exit(0));
for (;;) {
  rmSync(tmp, { force: true });
  symlinkSync(flip ? inside : outside, tmp);
  renameSync(tmp, target);
  if (!told) {
    told = true;
    process.stdout.write("ready\n");
  }
  flip = !flip;
}
