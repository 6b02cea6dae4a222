/**
 * An append-only journal of sealed frames in a cache entry's folder: each process (each thread) appends
 * to a file of its own, so a value is stored with one write and no rename (a rename over a file costs a
 * flush of its data on ext4, paid per call by a resident server). A frame is its payload's length, its
 * seal (an HMAC under the cache key, cache.ts) and the payload: a reader takes the frames from the start,
 * stopping at the first that is cut short (a writer stopped mid-frame, or is writing it now) or whose seal
 * fails (damage, or a frame forged without the key), so a crashed or hostile writer can only make a later
 * read miss what it holds, never read a wrong value. A journal is folded into the store's records by a
 * higher layer: it claims a file first (renames it aside, one step, so one folder has it), folds what it
 * reads, then removes it; a writer that finds its file claimed after an append writes the frame again to
 * a new file, so a fold loses nothing appended.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

const LENGTH_BYTES = 4;
const SEAL_BYTES = 32;
const HEADER_BYTES = LENGTH_BYTES + SEAL_BYTES;
/** More than any frame written holds: a length past it is damage, never allocated. */
const MAX_FRAME_BYTES = 256 * 2 ** 20;
/** A fold's lock older than this was left by a folder that stopped: it is taken over. */
const STALE_LOCK_MS = 5 * 60 * 1000;

/** Names this process's (this thread's) journal files apart from every other writer's. */
const WRITER_TAG = `${process.pid}-${randomBytes(6).toString("hex")}`;
let claimCounter = 0;

/** A journal file as listed: its name in the folder, what identifies it (its inode), its size. */
export interface JournalFile {
  name: string;
  /** Device, inode and birth time: the same file under a new name (claimed) keeps it. */
  id: string;
  size: number;
}

/** The sealed frames read from a file, and where the last whole valid one ends. */
export interface JournalFrames {
  values: Uint8Array[];
  end: number;
}

/** Where an append was stored: the file (its id) and the frame's start and end. */
export interface Appended {
  id: string;
  start: number;
  end: number;
}

export class SealedJournal {
  /**
   * @param dir the cache entry's folder (made by `makeDir` before the first append)
   * @param prefix the journal's name: its files are `<prefix>.<writer>.log`, claimed ones
   *   `<prefix>.<writer>.log.<claim>.log`
   * @param seal the seal of a payload (bound to the document and the journal's name by the caller)
   */
  constructor(
    private readonly dir: string,
    private readonly prefix: string,
    private readonly seal: (payload: Uint8Array) => Buffer,
    private readonly makeDir: () => void,
  ) {}

  /** This writer's file: appends go there until it is claimed, then to a new file of the same name. */
  private get ownPath(): string {
    return join(this.dir, `${this.prefix}.${WRITER_TAG}.log`);
  }

  /**
   * Appends one sealed frame to this writer's file. A frame that could not be written whole is cut off
   * again (the file keeps only whole frames). Throws when the folder cannot be written.
   */
  append(payload: Uint8Array): Appended {
    const frame = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
    frame.writeUInt32LE(payload.length, 0);
    this.seal(payload).copy(frame, LENGTH_BYTES);
    frame.set(payload, HEADER_BYTES);
    // A file claimed by a folder between the open and the check below may have been read before the
    // frame was in it: the frame goes again to a new file (a value twice is the same value).
    for (let attempt = 0; ; attempt++) {
      const appended = this.appendOnce(frame);
      if (appended.stillOurs || attempt === 2) return appended.at;
    }
  }

  private appendOnce(frame: Buffer): { at: Appended; stillOurs: boolean } {
    const path = this.ownPath;
    let fd: number;
    try {
      fd = openSync(
        path,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
        0o600,
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      this.makeDir();
      fd = openSync(
        path,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
        0o600,
      );
    }
    try {
      const before = fstatSync(fd, { bigint: true });
      if (!before.isFile()) throw new Error("not a journal file");
      const start = Number(before.size);
      let done = 0;
      try {
        while (done < frame.length) done += writeSync(fd, frame, done, frame.length - done);
      } catch (error) {
        // A frame cut short is removed, so the frames appended after it are read.
        if (done > 0) truncateQuietly(path, fd, start);
        throw error;
      }
      const at = { id: idOf(before), start, end: start + frame.length };
      return { at, stillOurs: sameFile(path, before) };
    } finally {
      closeSync(fd);
    }
  }

  /** Every file of the journal in the folder, this writer's, others' and claimed ones. */
  files(): JournalFile[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const out: JournalFile[] = [];
    const start = `${this.prefix}.`;
    for (const name of names) {
      if (!name.startsWith(start) || !name.endsWith(".log")) continue;
      try {
        const s = statSync(join(this.dir, name), { bigint: true });
        if (s.isFile()) out.push({ name, id: idOf(s), size: Number(s.size) });
      } catch {
        // Claimed or removed meanwhile: the next listing names it again, or its frames are folded.
      }
    }
    return out;
  }

  /** Whether a listed file is this writer's own (appends go to it). */
  isOwn(file: JournalFile): boolean {
    return file.name === `${this.prefix}.${WRITER_TAG}.log`;
  }

  /**
   * The payloads of the whole, validly sealed frames from `from` (a frame boundary) on; reading stops at
   * the first frame cut short or refused. Nothing when the file is gone or is another file now.
   */
  read(file: JournalFile, from: number): JournalFrames {
    const none = { values: [], end: from };
    let data: Buffer;
    try {
      const fd = openSync(
        join(this.dir, file.name),
        constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW,
      );
      try {
        const s = fstatSync(fd, { bigint: true });
        if (!s.isFile() || idOf(s) !== file.id || Number(s.size) <= from) return none;
        data = Buffer.allocUnsafe(Number(s.size) - from);
        let done = 0;
        while (done < data.length) {
          const n = readSync(fd, data, done, data.length - done, from + done);
          if (n === 0) break;
          done += n;
        }
        data = data.subarray(0, done);
      } finally {
        closeSync(fd);
      }
    } catch {
      return none;
    }
    const values: Uint8Array[] = [];
    let p = 0;
    while (data.length - p >= HEADER_BYTES) {
      const length = data.readUInt32LE(p);
      if (length > MAX_FRAME_BYTES || data.length - p - HEADER_BYTES < length) break;
      const payload = data.subarray(p + HEADER_BYTES, p + HEADER_BYTES + length);
      if (!this.seal(payload).equals(data.subarray(p + LENGTH_BYTES, p + HEADER_BYTES))) break;
      values.push(payload);
      p += HEADER_BYTES + length;
    }
    return { values, end: from + p };
  }

  /** Takes a file for folding (renamed aside, keeping its id); undefined when another folder has it. */
  claim(file: JournalFile): JournalFile | undefined {
    const name = `${file.name}.${WRITER_TAG}-${claimCounter++}.log`;
    try {
      renameSync(join(this.dir, file.name), join(this.dir, name));
    } catch {
      return undefined;
    }
    return { ...file, name };
  }

  /** Removes a claimed file once its frames are folded. */
  remove(file: JournalFile): void {
    rmSync(join(this.dir, file.name), { force: true });
  }

  /**
   * The fold's lock (one folder at a time, so no fold writes over another's records): a release
   * function, or undefined when another holds it. A lock left by a folder that stopped is taken over
   * once it is STALE_LOCK_MS old.
   */
  tryLock(now = Date.now()): (() => void) | undefined {
    const path = join(this.dir, `${this.prefix}.lock`);
    const tag = `${WRITER_TAG}-${claimCounter++}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
        return () => rmSync(path, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") return undefined;
      }
      try {
        if (now - statSync(path).mtimeMs < STALE_LOCK_MS) return undefined;
        // Aside first: of several takers, one renames it; the others find it gone and try again.
        const aside = `${path}.stale-${tag}`;
        renameSync(path, aside);
        rmSync(aside, { force: true });
      } catch {
        // Taken or released meanwhile.
      }
    }
    return undefined;
  }
}

function idOf(s: { dev: bigint; ino: bigint; birthtimeNs: bigint }): string {
  return `${s.dev}:${s.ino}:${s.birthtimeNs}`;
}

/** Whether the path still names the file `before` was taken from (not claimed by a folder since). */
function sameFile(path: string, before: { dev: bigint; ino: bigint; birthtimeNs: bigint }): boolean {
  try {
    return idOf(statSync(path, { bigint: true })) === idOf(before);
  } catch {
    return false;
  }
}

function truncateQuietly(path: string, fd: number, length: number): void {
  try {
    // ftruncate on the descriptor: the path may name another file by now.
    ftruncateSync(fd, length);
  } catch {
    // Left cut short: readers stop at the frame; moved aside (a journal file still, folded and removed
    // like any), so this writer's later frames go to a new file.
    try {
      renameSync(path, `${path}.cut-${WRITER_TAG}-${claimCounter++}.log`);
    } catch {
      // Gone already.
    }
  }
}
