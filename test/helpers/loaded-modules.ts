// The modules a CLI run loads, in every thread: ES modules named by a loader hook, CommonJS modules
// (the CLI's bundle among them; Node compiles .cjs files as .js) by a preload noting each file it compiles.
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect } from "vitest";
import { repoRoot } from "./fixture-files.js";
import { cliPath } from "./run-cli.js";

/** Runs the bin with `args` (in `dir`'s scratch files) and returns the URLs of the files it loaded, in order. */
export function modulesLoaded(dir: string, args: string[], status = 0): string[] {
  const list = join(dir, "loaded.txt");
  writeFileSync(list, "");
  const hooks = join(dir, "hooks.mjs");
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(list)}, url + "\\n");\n  return next(url, context);\n}\n`,
  );
  const register = join(dir, "register.mjs");
  writeFileSync(
    register,
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const note = join(dir, "note-commonjs.cjs");
  writeFileSync(
    note,
    `const { appendFileSync } = require("node:fs");
const { pathToFileURL } = require("node:url");
const Module = require("node:module");
for (const ext of [".js"]) {
  const compile = Module._extensions[ext];
  Module._extensions[ext] = function (module, filename) {
    appendFileSync(${JSON.stringify(list)}, pathToFileURL(filename).href + "\\n");
    return compile.call(this, module, filename);
  };
}
`,
  );
  const run = spawnSync(
    process.execPath,
    ["--require", note, "--import", pathToFileURL(register).href, cliPath, ...args],
    { cwd: repoRoot, encoding: "utf8", timeout: 60_000 },
  );
  expect(run.status, run.stderr).toBe(status);
  return readFileSync(list, "utf8").split("\n").filter(Boolean);
}
