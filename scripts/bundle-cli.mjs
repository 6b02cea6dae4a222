#!/usr/bin/env node
// A step of `npm run build`, after tsc: bundles the CLI's in-process run (dist/cli/in-process.js) and the
// workers it starts into dist/bundle/, a few files in place of the hundreds of modules (its own and
// zod's) that Node would otherwise resolve, read and compile one by one at every cold call. The bundle is
// made from tsc's output, so it runs the very code the library's modules are; code splitting keeps a
// command's modules loaded only when that command runs. The library (dist/index.js) is not bundled.
//
// Workers are found beside the module that starts them (`new URL("./engine-worker.js", import.meta.url)`),
// so each is an entry of the same name here. The CLI's CommonJS modules stay where they are (main.cjs has
// loaded them already); so do the packages that find files beside themselves or start workers from their
// own files, and those only rare commands load.
//
// Writes dist/bundle/modules.json (each file and the modules in it, paths from the package's root) and
// dist/bundle/THIRD-PARTY-LICENSES.txt (the licence of each package whose code the bundle holds).
//
// Usage: node scripts/bundle-cli.mjs
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const out = join(dist, "bundle");

/** Bundle entries: the in-process CLI and the workers it starts, by the file names their starters look for. */
const ENTRIES = {
  cli: join(dist, "cli", "in-process.js"),
  "engine-worker": join(dist, "document", "engine-worker.js"),
  worker: join(dist, "batch", "worker.js"),
};

/**
 * Packages left to Node: the PDF engine (its WebAssembly beside it, imported in one place), OCR (its
 * model and workers beside it), tinypool (starts workers from its own files), and the MCP SDK and the
 * BibTeX parser, which only the commands that need them load.
 */
const EXTERNAL_PACKAGES = [
  "@embedpdf/pdfium",
  "tesseract.js",
  "@tesseract.js-data/eng",
  "tinypool",
  "@modelcontextprotocol/sdk",
  "@retorquere/bibtex-parser",
];

const builtins = new Set(builtinModules);
const packageOf = (id) =>
  id
    .split("/")
    .slice(0, id.startsWith("@") ? 2 : 1)
    .join("/");

function external(id) {
  if (id.startsWith("node:") || builtins.has(id)) return true;
  return !id.startsWith(".") && !id.startsWith("/") && EXTERNAL_PACKAGES.includes(packageOf(id));
}

/** The CLI's CommonJS modules stay outside, named by their path: one instance, the one main.cjs loaded. */
const commonJsOfTheCli = {
  name: "cli-commonjs-external",
  resolveId(source, importer) {
    if (importer?.startsWith(dist) && source.startsWith(".") && source.endsWith(".cjs"))
      // Every file of the bundle is in one folder, so one path from it names the module.
      return { id: relative(out, resolve(dirname(importer), source)), external: true };
    return null;
  },
};

/** The package a bundled module comes from (its folder under node_modules), or undefined for citeproof's own. */
function packageDir(moduleId) {
  const parts = moduleId.split(sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) return undefined;
  const scoped = parts[at + 1].startsWith("@");
  return parts.slice(0, at + (scoped ? 3 : 2)).join(sep);
}

function licences(moduleIds) {
  const dirs = [...new Set(moduleIds.map(packageDir).filter(Boolean))].sort();
  return dirs.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const file = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license", "LICENCE"].find((f) =>
      existsSync(join(dir, f)),
    );
    const text = file ? readFileSync(join(dir, file), "utf8").trim() : `Licence: ${pkg.license}`;
    return `${pkg.name}@${pkg.version} (${pkg.license})\n\n${text}\n`;
  });
}

export async function bundleCli() {
  rmSync(out, { recursive: true, force: true });
  const build = await rolldown({
    input: ENTRIES,
    platform: "node",
    external,
    plugins: [commonJsOfTheCli],
    // Dynamic imports that are also static elsewhere are expected: the chunk holds them either way.
    onLog(level, log, handler) {
      if (log.code !== "INEFFECTIVE_DYNAMIC_IMPORT") handler(level, log);
    },
  });
  const { output } = await build.write({
    dir: out,
    // CommonJS: Node loads it without starting its ES module loader, in the main thread and each worker.
    format: "cjs",
    entryFileNames: "[name].js",
    chunkFileNames: "[name]-[hash].js",
    sourcemap: false,
    // Without whitespace and comments: every byte of a file is read and pre-parsed at each call (a third
    // less to read). Names are kept (no mangling) and no code is rewritten (no compression).
    minify: { compress: false, mangle: false, codegen: { removeWhitespace: true } },
    comments: false,
  });
  await build.close();
  const chunks = output.filter((o) => o.type === "chunk");
  const modules = Object.fromEntries(
    chunks
      .map((c) => [
        c.fileName,
        c.moduleIds.filter((id) => !id.startsWith("\0")).map((id) => relative(root, id)),
      ])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  writeFileSync(join(out, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);
  writeFileSync(join(out, "modules.json"), `${JSON.stringify(modules, null, 2)}\n`);
  const bundled = chunks.flatMap((c) => c.moduleIds.filter((id) => !id.startsWith("\0")));
  writeFileSync(
    join(out, "THIRD-PARTY-LICENSES.txt"),
    `The files of this folder hold code of these packages, under their licences:\n\n${licences(bundled).join("\n---\n\n")}`,
  );
  return chunks.length;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!existsSync(dirname(ENTRIES.cli)) || !existsSync(ENTRIES.cli))
    throw new Error(`${ENTRIES.cli} is missing: run tsc first`);
  await bundleCli();
}
