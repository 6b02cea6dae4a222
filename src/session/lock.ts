/**
 * The session lock: a file created exclusively (O_EXCL) in the session folder, holding the owner's
 * pid and host. Every change to a session happens while holding it; a lock whose owner process on
 * this host is gone is broken, any other is waited for until the deadline.
 */
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { CiteproofError } from "../errors.js";

export const LOCK_FILE = ".lock";
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;
/** A lock file still empty after this long was left by a process that died while creating it. */
const EMPTY_LOCK_GRACE_MS = 5_000;

interface LockOwner {
  pid: number;
  host: string;
  nonce: string;
  since: string;
}

export async function withSessionLock<T>(
  dir: string,
  body: () => Promise<T> | T,
  timeoutMs = DEFAULT_LOCK_TIMEOUT_MS,
): Promise<T> {
  const release = await acquire(dir, timeoutMs);
  try {
    return await body();
  } finally {
    release();
  }
}

async function acquire(dir: string, timeoutMs: number): Promise<() => void> {
  const path = join(dir, LOCK_FILE);
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    nonce: randomBytes(8).toString("hex"),
    since: new Date().toISOString(),
  };
  const deadline = Date.now() + timeoutMs;
  let wait = 5;
  for (;;) {
    if (tryCreate(path, owner)) return () => releaseIfOurs(path, owner);
    const holder = readOwner(path);
    if (holder === "gone") continue;
    if (isStale(path, holder)) {
      rmSync(path, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder
        ? `process ${holder.pid} on ${holder.host} since ${holder.since}`
        : "another process";
      throw new CiteproofError(
        "SESSION_LOCKED",
        `session ${dir} is locked by ${who}; try again when it finishes`,
      );
    }
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 100);
  }
}

function tryCreate(path: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    if (code === "EEXIST") return false;
    if (code === "ENOENT")
      throw new CiteproofError(
        "SESSION_NOT_FOUND",
        `session folder ${path.slice(0, -LOCK_FILE.length - 1)} does not exist`,
      );
    throw new CiteproofError(
      "OUTPUT_UNWRITABLE",
      `cannot create the session lock ${path} (${code ?? "unknown error"})`,
    );
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

function readOwner(path: string): LockOwner | undefined | "gone" {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return "gone";
  }
  try {
    const value = JSON.parse(text) as LockOwner;
    return typeof value.pid === "number" && typeof value.host === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function isStale(path: string, holder: LockOwner | undefined): boolean {
  if (!holder) {
    // Being written this instant, or left empty by a process that died: tell them apart by age.
    try {
      return Date.now() - statSync(path).mtimeMs > EMPTY_LOCK_GRACE_MS;
    } catch {
      return false;
    }
  }
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException)?.code === "ESRCH";
  }
}

function releaseIfOurs(path: string, owner: LockOwner): void {
  const holder = readOwner(path);
  if (holder && holder !== "gone" && holder.nonce === owner.nonce) rmSync(path, { force: true });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
