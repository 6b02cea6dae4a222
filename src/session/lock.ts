/**
 * The session lock: a file `.lock` in the session folder holding the owner's pid, host and a nonce.
 * Every change to a session happens while holding it.
 *
 * Taking it: the owner record is written whole to a temporary file which is then hard-linked to
 * `.lock` (link(2) fails when the name exists), so a lock is never seen empty or half-written.
 * Breaking it: a lock whose owner process on this host is gone is stale. Several waiters may judge
 * it stale at once, so breaking is itself exclusive: a waiter must first create `.lock-break-<nonce>`
 * (named after the stale owner's nonce, exclusively); only the one that does, and only while `.lock`
 * still holds that very owner, removes it. The others go back to waiting, so no waiter ever removes
 * a lock another has just taken. A `.lock` that is not a regular file (a folder, a symlink) was not
 * made by citeproof and is refused with SESSION_LOCKED at once.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  rmSync,
  type Stats,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { CiteproofError } from "../errors.js";

export const LOCK_FILE = ".lock";
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;
/** A lock file that cannot be read as an owner and is older than this was left by a crash. */
const UNREADABLE_LOCK_GRACE_MS = 5_000;

interface LockOwner {
  pid: number;
  host: string;
  nonce: string;
  since: string;
}

type Holder =
  | { kind: "absent" }
  | { kind: "owner"; owner: LockOwner; info: Stats }
  | { kind: "unreadable"; info: Stats }
  | { kind: "foreign"; what: string };

/** What a lock guards, for its file's name and its errors. */
export interface LockSubject {
  /** The lock file's name in `dir`. */
  file: string;
  /** How messages name what is locked ("session /x", "results file /y"). */
  what: string;
  /** The code of a lock held by another (or not a lock file). */
  locked: "SESSION_LOCKED" | "BATCH_OUTPUT_LOCKED";
  /** The error when `dir` does not exist. */
  missing: () => CiteproofError;
}

function sessionSubject(dir: string): LockSubject {
  return {
    file: LOCK_FILE,
    what: `session ${dir}`,
    locked: "SESSION_LOCKED",
    missing: () => new CiteproofError("SESSION_NOT_FOUND", `session folder ${dir} does not exist`),
  };
}

export async function withSessionLock<T>(
  dir: string,
  body: () => Promise<T> | T,
  timeoutMs = DEFAULT_LOCK_TIMEOUT_MS,
): Promise<T> {
  return withLock(dir, sessionSubject(dir), body, timeoutMs);
}

/** Runs `body` holding the lock file `subject.file` in `dir` (the session lock's rules, any file). */
export async function withLock<T>(
  dir: string,
  subject: LockSubject,
  body: () => Promise<T> | T,
  timeoutMs = DEFAULT_LOCK_TIMEOUT_MS,
): Promise<T> {
  const release = await acquire(dir, subject, timeoutMs);
  try {
    return await body();
  } finally {
    release();
  }
}

async function acquire(dir: string, subject: LockSubject, timeoutMs: number): Promise<() => void> {
  const path = join(dir, subject.file);
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    nonce: randomBytes(8).toString("hex"),
    since: new Date().toISOString(),
  };
  const deadline = Date.now() + timeoutMs;
  let wait = 5;
  for (;;) {
    if (tryCreate(dir, path, owner, subject)) return () => releaseIfOurs(path, owner);
    const holder = readHolder(path);
    if (holder.kind === "foreign") {
      throw new CiteproofError(
        subject.locked,
        `${subject.what} has a ${subject.file} that is ${holder.what}, not a lock file; remove it if no citeproof command is using it`,
      );
    }
    if (holder.kind !== "absent" && isStale(holder)) {
      if (breakStale(dir, path, holder, subject.file)) continue;
    }
    if (Date.now() >= deadline) {
      const who =
        holder.kind === "owner"
          ? `process ${holder.owner.pid} on ${holder.owner.host} since ${holder.owner.since}`
          : "another process";
      throw new CiteproofError(
        subject.locked,
        `${subject.what} is locked by ${who}; try again when it finishes`,
      );
    }
    if (holder.kind === "absent") continue;
    await sleep(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 100);
  }
}

/** Publishes the owner record as `.lock` in one step (write a private file whole, then link it). */
function tryCreate(dir: string, path: string, owner: LockOwner, subject: LockSubject): boolean {
  const draft = join(dir, `${subject.file}-${owner.nonce}.tmp`);
  let fd: number;
  try {
    fd = openSync(draft, "wx");
  } catch (error) {
    throw createError(path, error, subject);
  }
  try {
    try {
      writeSync(fd, JSON.stringify(owner));
    } finally {
      closeSync(fd);
    }
    linkSync(draft, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === "EEXIST") return false;
    throw createError(path, error, subject);
  } finally {
    rmSync(draft, { force: true });
  }
}

function createError(path: string, error: unknown, subject: LockSubject): CiteproofError {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "ENOENT") return subject.missing();
  return new CiteproofError(
    "OUTPUT_UNWRITABLE",
    `cannot create the lock ${path} of ${subject.what} (${code ?? "unknown error"})`,
  );
}

function readHolder(path: string): Holder {
  let info: Stats;
  try {
    info = lstatSync(path);
  } catch {
    return { kind: "absent" };
  }
  if (info.isSymbolicLink()) return { kind: "foreign", what: "a symlink" };
  if (info.isDirectory()) return { kind: "foreign", what: "a folder" };
  if (!info.isFile()) return { kind: "foreign", what: "a special file" };
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { kind: "absent" };
  }
  try {
    const value = JSON.parse(text) as LockOwner;
    if (typeof value.pid === "number" && typeof value.host === "string" && typeof value.nonce === "string")
      return { kind: "owner", owner: value, info };
  } catch {
    // Not an owner record: judged by its age below.
  }
  return { kind: "unreadable", info };
}

function isStale(holder: Exclude<Holder, { kind: "absent" | "foreign" }>): boolean {
  if (holder.kind === "unreadable") return Date.now() - holder.info.mtimeMs > UNREADABLE_LOCK_GRACE_MS;
  const { owner } = holder;
  if (owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException)?.code === "ESRCH";
  }
}

/**
 * Removes a stale lock if this waiter wins the right to: the break marker named after the stale lock
 * is created exclusively, and `.lock` is removed only while it is still that same lock. Returns true
 * when the lock was removed by this waiter.
 */
function breakStale(
  dir: string,
  path: string,
  holder: Exclude<Holder, { kind: "absent" | "foreign" }>,
  file: string,
): boolean {
  const key = holder.kind === "owner" ? holder.owner.nonce : `ino-${holder.info.ino}`;
  if (!/^[A-Za-z0-9-]{1,64}$/.test(key)) return false;
  const marker = join(dir, `${file}-break-${key}`);
  try {
    closeSync(openSync(marker, "wx"));
  } catch {
    // Another waiter is breaking this lock (or a marker was left by one that died: the deadline ends it).
    return false;
  }
  try {
    const now = readHolder(path);
    if (!sameLock(now, holder)) return false;
    rmSync(path, { force: true });
    return true;
  } finally {
    rmSync(marker, { force: true });
  }
}

function sameLock(now: Holder, then: Exclude<Holder, { kind: "absent" | "foreign" }>): boolean {
  if (now.kind === "owner" && then.kind === "owner") return now.owner.nonce === then.owner.nonce;
  if (now.kind === "unreadable" && then.kind === "unreadable")
    return now.info.ino === then.info.ino && now.info.mtimeMs === then.info.mtimeMs;
  return false;
}

function releaseIfOurs(path: string, owner: LockOwner): void {
  const holder = readHolder(path);
  if (holder.kind === "owner" && holder.owner.nonce === owner.nonce) rmSync(path, { force: true });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
