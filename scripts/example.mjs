#!/usr/bin/env node
// Runs `citeproof verify` on the bundled example. The example's evidence includes records that FAIL on
// purpose (one per reason), so the CLI's exit 1 is the expected outcome here; a tool error (exit 2) is not.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = [
  "dist/cli/main.js",
  "verify",
  "examples/paper.pdf",
  "--evidence",
  "examples/evidence.json",
  ...process.argv.slice(2),
];
const run = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
if (run.status === 1)
  console.log("(the example FAILs some records on purpose, one for each reason: citeproof exited 1)");
process.exit(run.status === 0 || run.status === 1 ? 0 : (run.status ?? 2));
