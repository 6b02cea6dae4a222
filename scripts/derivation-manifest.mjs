#!/usr/bin/env node
// The last step of `npm run build`: writes dist/derivation-manifest.json, the digest of the modules each
// kind of derived record depends on (src/util/derivation-graph.ts), computed from src/ so that a fresh
// clone's build writes the same file and a run from src/ (the tests) computes the same keys.
//
// Usage: node scripts/derivation-manifest.mjs
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { buildManifest, MANIFEST_FILE } = await import(
  pathToFileURL(join(root, "dist", "util", "derivation-graph.js")).href
);
writeFileSync(
  join(root, "dist", MANIFEST_FILE),
  `${JSON.stringify(buildManifest(join(root, "src")), null, 2)}\n`,
);
