// Where the bench finds the project and writes its generated files (bench-out/ is git-ignored).
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
export const cliPath = join(root, "dist", "cli", "main.js");
export const libraryPath = join(root, "dist", "index.js");
export const corpusDir = join(root, "..", "shared", "corpus");

export function benchOut(...parts) {
  const dir = join(root, "bench-out", ...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
}
