#!/usr/bin/env node
/**
 * The CLI's entry. A call that a running `citeproof serve` can take loads nothing but the socket
 * client, and as CommonJS, which Node loads without starting its ES module loader: Node's own start
 * is most of such a call. The program and the command's modules are loaded only when the command runs in
 * this process, from the build's CommonJS bundle of them (dist/bundle/), which starts no ES module loader
 * either.
 */
import { servable, serveMode } from "./serve-mode.cjs";

/** The socket client, loaded only for a call a server may take (`--serve never` runs here at once). */
const serveClient = () => require("./serve-client.cjs") as typeof import("./serve-client.cjs");

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const mode = serveMode(args);
  const served = mode === "auto" && servable(args) ? await serveClient().runThroughServe(args) : undefined;
  if (served) {
    serveClient().printServed(served);
    return;
  }
  // The call runs in this process, from the build's bundle of it (scripts/bundle-cli.mjs): a few files
  // to load in place of the hundreds of modules it is made of.
  const bundle = "../bundle/cli.js";
  const { runInProcess } = require(bundle) as typeof import("./in-process.js");
  process.exitCode = await runInProcess(process.argv, args, mode);
}

void main();
