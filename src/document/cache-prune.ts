/**
 * The cache's overall bound: the entries of every document (`<root>/<xx>/<sha256>/<version>/`) sized
 * and, when their total passes the cap, the least recently used removed until it is under. An entry's
 * last use is its folder's modification time, set whenever the entry is opened (ExtractionCache).
 * An entry is removed by renaming it aside first (one step: a reader sees the whole entry or none,
 * and a missing file is a cache miss), then deleting it. Entries this process opened are kept.
 *
 * The cap is `$CITEPROOF_CACHE_MAX_MB` (default 2048 MiB). After a process writes to a cache, the
 * cache is pruned at most once an hour (the `.pruned` marker's time); `citeproof cache prune` prunes
 * at once.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  lstatSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from "node:fs";
import { join } from "node:path";
import { CiteproofError } from "../errors.js";

export const CACHE_MAX_MB_ENV = "CITEPROOF_CACHE_MAX_MB";
export const DEFAULT_CACHE_MAX_MB = 2048;
const PRUNE_MARKER = ".pruned";
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Entry folders opened by this process: never evicted under it. */
const inUse = new Set<string>();

/** The cap in bytes: `$CITEPROOF_CACHE_MAX_MB`, else the default; a bad value is USAGE. */
export function cacheCapBytes(env: Record<string, string | undefined> = process.env): number {
  const text = env[CACHE_MAX_MB_ENV];
  if (text === undefined || text === "") return DEFAULT_CACHE_MAX_MB * 1024 * 1024;
  if (!/^\d+$/.test(text))
    throw new CiteproofError(
      "USAGE",
      `${CACHE_MAX_MB_ENV} must be a whole number of MiB (got ${JSON.stringify(text)})`,
    );
  return Number(text) * 1024 * 1024;
}

/** Marks an entry folder as used now (its modification time), and as in use by this process. */
export function touchEntry(dir: string): void {
  inUse.add(dir);
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // Not made yet (its first write makes it, and that sets its time) or a read-only cache.
  }
}

export interface PruneReport {
  /** Bytes of the cache's entries before and after. */
  before: number;
  after: number;
  cap: number;
  entries: number;
  removed: number;
}

interface Entry {
  dir: string;
  bytes: number;
  usedMs: number;
}

/** Every document entry under `root` with its size and last use. */
function entriesOf(root: string): Entry[] {
  const out: Entry[] = [];
  for (const prefix of safeList(root)) {
    if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
    for (const sha of safeList(join(root, prefix))) {
      if (!/^[0-9a-f]{64}$/.test(sha)) continue;
      for (const version of safeList(join(root, prefix, sha))) {
        const dir = join(root, prefix, sha, version);
        let info: ReturnType<typeof lstatSync>;
        try {
          info = lstatSync(dir);
        } catch {
          continue;
        }
        if (!info.isDirectory()) continue;
        out.push({ dir, bytes: sizeOf(dir), usedMs: info.mtimeMs });
      }
    }
  }
  return out;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function sizeOf(dir: string): number {
  let bytes = 0;
  for (const name of safeList(dir)) {
    try {
      const info = lstatSync(join(dir, name));
      if (info.isFile()) bytes += info.size;
    } catch {
      // Removed meanwhile.
    }
  }
  return bytes;
}

/** Removes the least recently used entries until the cache's entries total at most `cap` bytes. */
export function pruneCache(root: string, cap = cacheCapBytes()): PruneReport {
  const entries = entriesOf(root);
  const before = entries.reduce((n, e) => n + e.bytes, 0);
  let total = before;
  let removed = 0;
  // Oldest use first.
  for (const entry of [...entries].sort((a, b) => a.usedMs - b.usedMs)) {
    if (total <= cap) break;
    if (inUse.has(entry.dir)) continue;
    if (removeEntry(entry.dir)) {
      total -= entry.bytes;
      removed++;
    }
  }
  return { before, after: total, cap, entries: entries.length - removed, removed };
}

function removeEntry(dir: string): boolean {
  const aside = `${dir}.evicted-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    renameSync(dir, aside);
  } catch {
    return false;
  }
  rmSync(aside, { recursive: true, force: true });
  return true;
}

/**
 * After a write: prunes the cache when its last prune is over an hour old (or never was). The marker
 * is claimed first, so of several processes at once one prunes. Never throws: the bound is kept on a
 * later write.
 */
export function pruneIfDue(root: string, now = Date.now()): PruneReport | undefined {
  const marker = join(root, PRUNE_MARKER);
  try {
    let last = 0;
    try {
      last = statSync(marker).mtimeMs;
    } catch {
      closeSync(openSync(marker, "a"));
    }
    if (last > 0 && now - last < PRUNE_EVERY_MS) return undefined;
    const at = new Date(now);
    utimesSync(marker, at, at);
    return pruneCache(root);
  } catch {
    return undefined;
  }
}
