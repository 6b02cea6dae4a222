// Paths of the committed fixture PDFs and the optional corpus, and throwaway directories.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const corpusDir = resolve(repoRoot, "..", "shared", "corpus");
export const hasCorpus = existsSync(corpusDir);

export function fixture(name: string): string {
  return join(repoRoot, "test", "fixtures", `${name}.pdf`);
}

/** A fresh empty directory under the system temp dir, removed by the returned function. */
export function tempDir(prefix = "citeproof-test-"): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every file under `dir`, relative paths, recursively. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}
