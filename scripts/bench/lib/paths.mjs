// Where the bench finds the project and writes its generated files (bench-out/ is git-ignored).
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
/** The build measured: a snapshot of dist/ taken by run.mjs (so a rebuild mid-run changes nothing), else dist/. */
export const distDir = process.env.CITEPROOF_BENCH_DIST ?? join(root, "dist");
/** The package's bin (main.cjs); a build from before it had one names main.js. */
export const cliPath = existsSync(join(distDir, "cli", "main.cjs"))
  ? join(distDir, "cli", "main.cjs")
  : join(distDir, "cli", "main.js");
export const libraryPath = join(distDir, "index.js");
export const corpusDir = join(root, "..", "shared", "corpus");

export function benchOut(...parts) {
  const dir = join(root, "bench-out", ...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
}
