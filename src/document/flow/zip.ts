/**
 * A zip archive read from bytes in memory, bounded: every entry is inflated with node:zlib under an
 * output cap (its own, what is left of the archive's, and a ratio to its compressed size), so a zip bomb
 * stops as soon as it crosses a cap, having held no more than the cap. Entries are looked up by name
 * only; a name that could climb out of the archive (absolute, `..`, a backslash, NUL) is never reachable.
 */
import { crc32, inflateRawSync } from "node:zlib";
import { CiteproofError } from "../../errors.js";

export interface ZipLimits {
  /** Inflated bytes one entry may hold. */
  entryBytes: number;
  /** Inflated bytes all the entries read from one archive may hold together. */
  totalBytes: number;
  /** Inflated bytes per compressed byte an entry may reach beyond `ratioFloor`. */
  ratio: number;
  /** Inflated bytes an entry may hold whatever its ratio (small parts compress very well). */
  ratioFloor: number;
  /** Entries the central directory may list. */
  entries: number;
}

export const ZIP_LIMITS: ZipLimits = {
  entryBytes: 64 * 1024 * 1024,
  totalBytes: 256 * 1024 * 1024,
  ratio: 200,
  ratioFloor: 1024 * 1024,
  entries: 20_000,
};

interface Entry {
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const EOCD_SIZE = 22;

export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
  );
}

function damaged(what: string, why: string): CiteproofError {
  return new CiteproofError("CONTENT_INVALID", `${what} is not a readable zip archive: ${why}`, {
    part: what,
  });
}

/** A name reachable by lookup: relative, forward slashes, no `.`/`..` segment, no NUL. */
export function safeEntryName(name: string): boolean {
  if (name.length === 0 || name.startsWith("/") || /[\\\0]/.test(name) || /^[A-Za-z]:/.test(name))
    return false;
  return name.split("/").every((segment) => segment !== ".." && segment !== ".");
}

export class ZipArchive {
  private readonly entries = new Map<string, Entry>();
  private inflated = 0;

  private constructor(
    private readonly bytes: Uint8Array,
    private readonly view: DataView,
    /** What the archive is, for messages: the file's kind or name. */
    readonly what: string,
    private readonly limits: ZipLimits,
  ) {}

  static open(bytes: Uint8Array, what: string, limits: ZipLimits = ZIP_LIMITS): ZipArchive {
    if (!isZip(bytes)) throw damaged(what, "no zip signature");
    const zip = new ZipArchive(
      bytes,
      new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      what,
      limits,
    );
    zip.readDirectory();
    return zip;
  }

  /** The reachable entry names, in the central directory's order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry's inflated bytes; CONTENT_INVALID naming the entry when it is missing, damaged or too big. */
  read(name: string): Uint8Array {
    const entry = this.entries.get(name);
    if (entry === undefined)
      throw new CiteproofError("CONTENT_INVALID", `${this.what} has no part ${name}`, { part: name });
    return this.inflate(name, entry);
  }

  private readDirectory(): void {
    const end = this.findEnd();
    const count = this.view.getUint16(end + 10, true);
    const size = this.view.getUint32(end + 12, true);
    const offset = this.view.getUint32(end + 16, true);
    if (count === 0xffff || offset === 0xffffffff)
      throw new CiteproofError("CONTENT_NOT_SUPPORTED", `${this.what} is a zip64 archive, which is not read`);
    if (count > this.limits.entries)
      throw damaged(this.what, `${count} entries, more than the ${this.limits.entries} read`);
    if (offset + size > end) throw damaged(this.what, "the central directory lies outside the file");
    let at = offset;
    for (let i = 0; i < count; i++) {
      if (at + 46 > end || this.view.getUint32(at, true) !== CENTRAL)
        throw damaged(this.what, `central directory entry ${i} is damaged`);
      const nameLength = this.view.getUint16(at + 28, true);
      const extraLength = this.view.getUint16(at + 30, true);
      const commentLength = this.view.getUint16(at + 32, true);
      const flags = this.view.getUint16(at + 8, true);
      const nameBytes = this.bytes.subarray(at + 46, at + 46 + nameLength);
      const name = new TextDecoder(flags & 0x800 ? "utf-8" : "latin1").decode(nameBytes);
      const entry: Entry = {
        flags,
        method: this.view.getUint16(at + 10, true),
        crc: this.view.getUint32(at + 16, true),
        compressedSize: this.view.getUint32(at + 20, true),
        size: this.view.getUint32(at + 24, true),
        localOffset: this.view.getUint32(at + 42, true),
      };
      at += 46 + nameLength + extraLength + commentLength;
      if (name.endsWith("/") || !safeEntryName(name)) continue;
      if (this.entries.has(name)) throw damaged(this.what, `two entries are named ${name}`);
      this.entries.set(name, entry);
    }
  }

  private findEnd(): number {
    const last = this.bytes.length - EOCD_SIZE;
    for (let at = last; at >= 0 && at >= last - 0xffff; at--)
      if (this.view.getUint32(at, true) === EOCD) return at;
    throw damaged(this.what, "no end of central directory");
  }

  private inflate(name: string, entry: Entry): Uint8Array {
    const bad = (why: string) =>
      new CiteproofError("CONTENT_INVALID", `${this.what} part ${name} ${why}`, { part: name });
    if (entry.flags & 0x1)
      throw new CiteproofError("CONTENT_NOT_SUPPORTED", `${this.what} part ${name} is encrypted`);
    const local = entry.localOffset;
    if (local + 30 > this.bytes.length || this.view.getUint32(local, true) !== LOCAL) throw bad("is damaged");
    const start = local + 30 + this.view.getUint16(local + 26, true) + this.view.getUint16(local + 28, true);
    const data = this.bytes.subarray(start, start + entry.compressedSize);
    if (start + entry.compressedSize > this.bytes.length) throw bad("runs past the end of the file");
    const cap = this.capFor(entry.compressedSize);
    let out: Uint8Array;
    if (entry.method === 0) out = data;
    else if (entry.method === 8) {
      try {
        out = inflateRawSync(data, { maxOutputLength: cap.bytes + 1 });
      } catch (error) {
        if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
          throw bad(`inflates past ${cap.why}`);
        throw bad("does not inflate");
      }
    } else
      throw new CiteproofError(
        "CONTENT_NOT_SUPPORTED",
        `${this.what} part ${name} uses zip compression method ${entry.method}`,
      );
    if (out.length > cap.bytes) throw bad(`inflates past ${cap.why}`);
    if (out.length !== entry.size || crc32(out) !== entry.crc) throw bad("fails its size or CRC check");
    this.inflated += out.length;
    return out;
  }

  private capFor(compressedSize: number): { bytes: number; why: string } {
    const caps = [
      { bytes: this.limits.entryBytes, why: `the ${this.limits.entryBytes} bytes a part may hold` },
      {
        bytes: this.limits.totalBytes - this.inflated,
        why: `the ${this.limits.totalBytes} bytes an archive may hold`,
      },
      {
        bytes: Math.max(this.limits.ratioFloor, compressedSize * this.limits.ratio),
        why: `${this.limits.ratio} times its compressed size`,
      },
    ];
    return caps.reduce((a, b) => (b.bytes < a.bytes ? b : a));
  }
}
