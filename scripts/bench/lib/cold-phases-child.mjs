// Child process for the cold-start breakdown: does, one after the other in one fresh process, what a
// cold `citeproof verify` of quotations does, and times each step from the process's own start:
// loading the modules the verify command loads, compiling the engine's WebAssembly, instantiating it
// (the compiled module is reused, so this is instantiation and the engine's own set-up), and
// extracting the pages the check reads first (the cited pages and their neighbours) on the main thread.
// Prints one JSON line of milliseconds: {bootMs, modulesMs, compileMs, instantiateMs, extractMs, pages}
// (wall) and cpuMs (this process's CPU, every thread, over each step).
// Usage: node cold-phases-child.mjs <dist dir> <pdf> <evidence.json>
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, pdf, evidencePath] = process.argv.slice(2);
const at = () => performance.now();
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const bootMs = at();
const cpuAt = [cpu()];
const load = (path) => import(pathToFileURL(join(dist, path)).href);
// The modules a cold verify of quotations loads: the program, the command, the checks; from the CLI's
// bundle (the files holding them, dist/bundle/modules.json) when the build has one, as the bin does.
const VERIFY_MODULES = ["cli/program.js", "cli/commands/verify.js", "reading/held-pages.js"];
if (existsSync(join(dist, "bundle", "modules.json"))) {
  const held = JSON.parse(readFileSync(join(dist, "bundle", "modules.json"), "utf8"));
  const fileOf = (module) =>
    Object.keys(held).find((file) => held[file].some((m) => m.endsWith(`dist/${module}`)));
  // CommonJS, required as main.cjs requires it.
  const require = createRequire(join(dist, "bundle", "cli.js"));
  for (const file of ["cli.js", ...VERIFY_MODULES.map(fileOf)]) require(join(dist, "bundle", file));
} else {
  await Promise.all(
    ["cli/output-errors.js", "cli/v8-tuning.js", "document/process-tuning.js", ...VERIFY_MODULES].map(load),
  );
}
const modulesAt = at();
cpuAt.push(cpu());
const wasmPath = createRequire(join(dist, "document", "pdfium", "engine.js")).resolve(
  "@embedpdf/pdfium/pdfium.wasm",
);
// Held while the engine loads: V8 reuses a module compiled from the same bytes while it is alive.
const compiled = await WebAssembly.compile(readFileSync(wasmPath));
const compileAt = at();
cpuAt.push(cpu());
const { loadEngine } = await load("document/pdfium/engine.js");
const engine = await loadEngine();
const instantiateAt = at();
cpuAt.push(cpu());
const doc = engine.open(new Uint8Array(readFileSync(pdf)));
// The check's first read: each cited page and RADIUS pages each side (src/reading/held-pages.ts).
const RADIUS = 6;
const pages = new Set();
for (const r of JSON.parse(readFileSync(evidencePath, "utf8"))) {
  for (let p = Math.max(1, r.page - RADIUS); p <= Math.min(doc.pageCount, r.page + RADIUS); p++) pages.add(p);
}
for (const p of pages) doc.extractPage(p - 1, false);
doc.close();
const extractAt = at();
cpuAt.push(cpu());
process.stdout.write(
  `${JSON.stringify({
    bootMs,
    modulesMs: modulesAt - bootMs,
    compileMs: compileAt - modulesAt,
    instantiateMs: instantiateAt - compileAt,
    extractMs: extractAt - instantiateAt,
    cpuMs: {
      boot: cpuAt[0],
      modules: cpuAt[1] - cpuAt[0],
      compile: cpuAt[2] - cpuAt[1],
      instantiate: cpuAt[3] - cpuAt[2],
      extract: cpuAt[4] - cpuAt[3],
    },
    pages: pages.size,
    kept: compiled instanceof WebAssembly.Module,
  })}\n`,
);
