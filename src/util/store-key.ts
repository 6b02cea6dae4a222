/**
 * The per-user key that seals citeproof's stores (session files, claim pool lines, run events): an
 * HMAC-SHA256 under it travels with each record, so anyone who can write the store but cannot read
 * the key cannot forge, edit, reorder or move a record without the seal failing.
 *
 * The key is 32 random bytes (hex) in `$CITEPROOF_KEY_FILE`, else `$XDG_CONFIG_HOME/citeproof/key`,
 * else `~/.config/citeproof/key`: outside every run and session folder. It is created on first use
 * with mode 0600 (written whole, then linked into place, so two first uses agree on one key).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  closeSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { CiteproofError } from "../errors.js";

export const KEY_FILE_ENV = "CITEPROOF_KEY_FILE";
const KEY_PATTERN = /^[0-9a-f]{64}$/;

export function keyFilePath(): string {
  const chosen = process.env[KEY_FILE_ENV];
  if (chosen) return resolve(chosen);
  const config = process.env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(config, "citeproof", "key");
}

const keys = new Map<string, Buffer>();

/** The key at `keyFilePath()`, created on first use. */
export function storeKey(): Buffer {
  return keyAt(keyFilePath());
}

/** The key in the file at `path` (absolute), created on first use; read once per process. */
export function keyAt(path: string, env = KEY_FILE_ENV): Buffer {
  const held = keys.get(path);
  if (held) return held;
  const key = readKey(path, env) ?? createKey(path, env);
  keys.set(path, key);
  return key;
}

function readKey(path: string, env: string): Buffer | undefined {
  let text: string;
  try {
    const fd = openSync(path, "r");
    try {
      if (!fstatSync(fd).isFile()) throw unusable(path, "is not a regular file", env);
      text = readFileSync(fd, "utf8").trim();
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === "ENOENT") return undefined;
    if (error instanceof CiteproofError) throw error;
    throw unusable(
      path,
      `cannot be read (${(error as NodeJS.ErrnoException)?.code ?? "unknown error"})`,
      env,
    );
  }
  if (!KEY_PATTERN.test(text)) throw unusable(path, "does not hold a key (64 hex digits)", env);
  return Buffer.from(text, "hex");
}

function createKey(path: string, env: string): Buffer {
  const draft = `${path}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const fd = openSync(draft, "wx", 0o600);
    try {
      writeSync(fd, `${randomBytes(32).toString("hex")}\n`);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(draft, path);
    } catch (error) {
      // Another process created it first: its key is the key.
      if ((error as NodeJS.ErrnoException)?.code !== "EEXIST") throw error;
    }
  } catch (error) {
    if (error instanceof CiteproofError) throw error;
    throw unusable(
      path,
      `cannot be created (${(error as NodeJS.ErrnoException)?.code ?? "unknown error"})`,
      env,
    );
  } finally {
    rmSync(draft, { force: true });
  }
  const key = readKey(path, env);
  if (!key) throw unusable(path, "vanished while it was being created", env);
  return key;
}

function unusable(path: string, problem: string, env: string): CiteproofError {
  return new CiteproofError(
    "KEY_UNAVAILABLE",
    `the ${env === KEY_FILE_ENV ? "store" : "cache"} key ${path} ${problem}; set ${env} to another file, or remove it to make a new key (stores sealed with the old key then fail their seal)`,
  );
}

/** The seal of a record: HMAC-SHA256 under the store key over its parts (length-prefixed, hex). */
export function seal(parts: readonly string[]): string {
  const mac = createHmac("sha256", storeKey());
  for (const part of parts) mac.update(`${Buffer.byteLength(part)}:${part};`);
  return mac.digest("hex");
}

/** True when `value` is the seal of `parts` (compared in constant time). */
export function sealHolds(value: unknown, parts: readonly string[]): boolean {
  if (typeof value !== "string" || !KEY_PATTERN.test(value)) return false;
  return timingSafeEqual(Buffer.from(value, "hex"), Buffer.from(seal(parts), "hex"));
}
