#!/usr/bin/env node
// The layer rule of docs/architecture.md, enforced: a module under src/ imports only modules of its
// own layer or of a lower one. Every relative import is read (static, `export ... from`, `import type`,
// dynamic `import("...")` and `require("...")`), so a type that reaches upward counts as well.
// `npm run lint` runs it; it prints each upward import and exits 1 when there is one.
//
// Usage: node scripts/check-layers.mjs [src dir]
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The layers, lowest first. A folder (or a single file) of src/ belongs to one layer; the folders of one
 * layer may import each other. `util`, `errors.ts` and `error-document.ts` sit below every layer.
 */
export const LAYERS = [
  ["util", "errors.ts", "error-document.ts"],
  ["source"],
  ["document"],
  ["text", "ocr"],
  ["layout"],
  ["prose"],
  ["checks"],
  ["session", "evidence", "report", "drafts", "reading"],
  ["operations"],
  ["batch"],
  ["cli", "mcp", "pi"],
  ["index.ts"],
];

/**
 * Upward imports that are known and kept for now, each with its reason: `from -> to`, both paths
 * relative to src/. Nothing else may reach upward.
 */
export const ALLOWED = new Map([]);

/** The layer of a path relative to src/ (forward slashes), or undefined for a path outside every layer. */
export function layerOf(path) {
  const top = path.split("/")[0];
  const index = LAYERS.findIndex((names) => names.includes(top));
  return index < 0 ? undefined : index;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;

/** The relative specifiers a module's source imports. */
export function importsOf(source) {
  // Comments may name modules ("see ../x.js"): they are not imports.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  return [...code.matchAll(IMPORT)].map((m) => m[1]);
}

/** The module a specifier names, relative to src/: `.js`/`.cjs` resolve to the `.ts`/`.cts` source. */
function target(fromPath, specifier) {
  const joined = join(dirname(fromPath), specifier).split(sep).join("/");
  return joined.replace(/\.js$/, ".ts").replace(/\.cjs$/, ".cts");
}

/**
 * Every upward import among `modules` ({path relative to src/, source}), as `{from, to, fromLayer,
 * toLayer}`, less the ALLOWED ones; also any module or target outside every layer.
 */
export function violations(modules, allowed = ALLOWED) {
  const out = [];
  for (const { path, source } of modules) {
    const fromLayer = layerOf(path);
    if (fromLayer === undefined) {
      out.push({ from: path, to: undefined, problem: `${path} is in no layer (add its folder to LAYERS)` });
      continue;
    }
    for (const specifier of importsOf(source)) {
      const to = target(path, specifier);
      if (to.startsWith("..")) continue; // outside src/ (package.json, say)
      const toLayer = layerOf(to);
      if (toLayer === undefined) {
        out.push({ from: path, to, problem: `${path} imports ${to}, which is in no layer` });
      } else if (toLayer > fromLayer && !allowed.has(`${path} -> ${to}`)) {
        out.push({
          from: path,
          to,
          problem: `${path} (${LAYERS[fromLayer].join(", ")}) imports ${to} (${LAYERS[toLayer].join(", ")}), a higher layer`,
        });
      }
    }
  }
  return out;
}

/** The TypeScript modules under a folder, paths relative to it with forward slashes. */
export function modulesUnder(dir) {
  const out = [];
  const walk = (sub) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const path = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else if (/\.(c|m)?ts$/.test(entry.name) && !entry.name.endsWith(".d.ts"))
        out.push({ path, source: readFileSync(join(dir, path), "utf8") });
    }
  };
  walk("");
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const src = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "src"));
  const found = violations(modulesUnder(src));
  for (const v of found) process.stderr.write(`check-layers: ${v.problem}\n`);
  if (found.length > 0) {
    process.stderr.write(
      `check-layers: ${found.length} import(s) break the layer order of docs/architecture.md (${relative(process.cwd(), src) || "."})\n`,
    );
    process.exit(1);
  }
}
