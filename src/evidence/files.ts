/**
 * File writes that a crash cannot leave half-done: the content goes to a temporary name in the same
 * folder, is flushed to disk, and only then appears under its real name, by link (write-once: an
 * existing name is never replaced) or by rename (atomic replace).
 */
import { linkSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { replaceFile, syncDir, tempPathFor, writeAndSync } from "../util/atomic-file.js";

export { syncDir, tempPathFor, writeAndSync };

/**
 * Creates `path` with the given content unless it exists. Returns false (and writes nothing) when
 * the name is already taken. Either the complete content appears under the name or nothing does.
 */
export function writeFileOnce(path: string, data: string | Uint8Array): boolean {
  const tmp = tempPathFor(path);
  writeAndSync(tmp, data);
  try {
    linkSync(tmp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    rmSync(tmp, { force: true });
  }
  syncDir(dirname(path));
  return true;
}

/** Writes `path` by atomic replacement. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  replaceFile(path, data);
  syncDir(dirname(path));
}

/** Removes temporary files left in `dir` by writers that were killed (their process is gone). */
export function removeAbandonedTemps(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^\.tmp-(\d+)-/.exec(name);
    if (!match || processAlive(Number(match[1]))) continue;
    rmSync(join(dir, name), { force: true });
  }
}

export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** JSON with object keys sorted at every level: the form digests are taken over. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}
