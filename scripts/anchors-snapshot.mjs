#!/usr/bin/env node
// Records the anchors every PDF of the shared corpus and the test fixtures gives (the record
// `citeproof anchors --json` prints: every label, caption and rejected candidate with its reasons),
// so that a change meant to keep every verdict can be shown to keep them: `--compare FILE` prints
// each PDF whose anchors differ from the recorded ones and exits 1 when any does.
// The pages' text and geometry are cached under bench-out/anchors-snapshot (extraction is not what
// is compared); the anchors are decided afresh on every run, from the build in dist/.
// Usage: node scripts/anchors-snapshot.mjs OUT.json [DIR...]
//        node scripts/anchors-snapshot.mjs --compare SNAPSHOT.json [DIR...]
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(fileURLToPath(new URL("..", import.meta.url)));
const load = (path) => import(pathToFileURL(join(root, "dist", path)).href);
const { openForAnchors, documentAnchors } = await load("layout/anchors.js");

const args = process.argv.slice(2);
const compare = args[0] === "--compare";
const file = compare ? args[1] : args[0];
if (!file) {
  console.error("usage: anchors-snapshot.mjs OUT.json [DIR...] | --compare SNAPSHOT.json [DIR...]");
  process.exit(2);
}
const extra = args.slice(compare ? 2 : 1);
const dirs = [join(root, "..", "shared", "corpus"), join(root, "test", "fixtures"), ...extra];

function pdfsUnder(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...pdfsUnder(path));
    else if (name.endsWith(".pdf")) out.push(path);
  }
  return out;
}

const cacheDir = join(root, "bench-out", "anchors-snapshot");
mkdirSync(cacheDir, { recursive: true });

/** The record decided afresh: the cache gives pages and geometry, never a stored anchors record. */
async function anchorsOf(pdf) {
  const doc = await openForAnchors(pdf, { cacheDir, withGeometry: true, cacheGeometry: true });
  const cache = doc.cache && {
    readRecord: () => undefined,
    writeRecord: () => {},
    readPageText: (page) => doc.cache.readPageText(page),
    readPageGeometry: (page) => doc.cache.readPageGeometry(page),
  };
  const record = await documentAnchors({ ...doc, cache }, { timeoutMs: 10 * 60_000 });
  return record;
}

const snapshot = {};
for (const dir of dirs)
  for (const pdf of pdfsUnder(dir)) {
    const name = relative(join(root, ".."), pdf);
    try {
      snapshot[name] = await anchorsOf(pdf);
    } catch (e) {
      snapshot[name] = { error: e?.code ?? String(e?.message ?? e) };
    }
  }

if (!compare) {
  writeFileSync(file, `${JSON.stringify(snapshot, null, 1)}\n`);
  console.log(`${Object.keys(snapshot).length} PDFs recorded to ${file}`);
} else {
  const before = JSON.parse(readFileSync(file, "utf8"));
  let differ = 0;
  for (const name of new Set([...Object.keys(before), ...Object.keys(snapshot)])) {
    const a = JSON.stringify(before[name]);
    const b = JSON.stringify(snapshot[name]);
    if (a === b) continue;
    differ++;
    console.log(`differs: ${name}`);
  }
  console.log(`${Object.keys(snapshot).length} PDFs, ${differ} differ`);
  process.exit(differ > 0 ? 1 : 0);
}
