#!/usr/bin/env node
// Records the anchors every PDF of the shared corpus and the test fixtures gives (the record
// `citeproof anchors --json` prints: every label, caption and rejected candidate with its reasons),
// so that a change meant to keep every verdict can be shown to keep them: `--compare FILE` prints
// each PDF whose anchors differ from the recorded ones and exits 1 when any does.
// The pages' text and geometry are cached under bench-out/anchors-snapshot (extraction is not what
// is compared); the anchors are decided afresh on every run, from the build in dist/.
// Usage: node scripts/anchors-snapshot.mjs OUT.json [DIR...]
//        node scripts/anchors-snapshot.mjs --compare SNAPSHOT.json [DIR...]
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root, runSnapshot } from "./snapshot-run.mjs";

const load = (path) => import(pathToFileURL(join(root, "dist", path)).href);
const { openForAnchors, documentAnchors } = await load("layout/anchors.js");

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
  const { layoutVersion: _, ...record } = await documentAnchors(
    { ...doc, cache },
    { timeoutMs: 10 * 60_000 },
  );
  // The layout version is derived from the rules' source: a refactoring changes it, by design.
  return record;
}

await runSnapshot("anchors-snapshot.mjs", anchorsOf);
