/**
 * A file of numbered chunks, each readable alone: a seal (32 bytes) over the table, the table (the
 * chunk count, then for each chunk its offset, byte length and sha256; length 0 for a chunk not
 * held), then the chunks. It is written a chunk at a time, in any order, the table last at the
 * file's start, so a document's pages can be stored as they arrive without holding them all; a
 * reader checks the seal of the table once and each chunk's sha256 when it reads it.
 */
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from "node:fs";

const SEAL_BYTES = 32;
const ENTRY_BYTES = 8 + 4 + 32;

/** Seals a table: a digest binding it to its file (the cache's binding of document, role and version). */
export type Seal = (table: Uint8Array) => Buffer;

export interface ChunkTable {
  count: number;
  offsets: Float64Array;
  lengths: Uint32Array;
  digests: Uint8Array;
}

function tableBytes(count: number): number {
  return 4 + count * ENTRY_BYTES;
}

function encodeTable(t: ChunkTable): Buffer {
  const out = Buffer.alloc(tableBytes(t.count));
  out.writeUInt32LE(t.count, 0);
  for (let i = 0; i < t.count; i++) {
    const at = 4 + i * ENTRY_BYTES;
    out.writeDoubleLE(t.offsets[i], at);
    out.writeUInt32LE(t.lengths[i], at + 8);
    out.set(t.digests.subarray(i * 32, i * 32 + 32), at + 12);
  }
  return out;
}

/** The table a file starts with, or undefined when it is not one (its seal or its ranges fail). */
function decodeTable(head: Buffer, fileBytes: number, seal: Seal, maxCount: number): ChunkTable | undefined {
  if (head.length < SEAL_BYTES + 4) return undefined;
  const count = head.readUInt32LE(SEAL_BYTES);
  if (count > maxCount || head.length < SEAL_BYTES + tableBytes(count)) return undefined;
  const table = head.subarray(SEAL_BYTES, SEAL_BYTES + tableBytes(count));
  if (!seal(table).equals(head.subarray(0, SEAL_BYTES))) return undefined;
  const offsets = new Float64Array(count);
  const lengths = new Uint32Array(count);
  const digests = new Uint8Array(count * 32);
  const start = SEAL_BYTES + tableBytes(count);
  for (let i = 0; i < count; i++) {
    const at = 4 + i * ENTRY_BYTES;
    offsets[i] = table.readDoubleLE(at);
    lengths[i] = table.readUInt32LE(at + 8);
    digests.set(table.subarray(at + 12, at + 44), i * 32);
    const end = offsets[i] + lengths[i];
    if (lengths[i] > 0 && (!Number.isSafeInteger(offsets[i]) || offsets[i] < start || end > fileBytes))
      return undefined;
  }
  return { count, offsets, lengths, digests };
}

function digestOf(chunk: Uint8Array): Buffer {
  return createHash("sha256").update(chunk).digest();
}

/** Writes a chunked file to `path` (a temporary name the caller renames into place once finished). */
export class ChunkedFileWriter {
  private readonly fd: number;
  private at: number;
  private readonly table: ChunkTable;

  constructor(
    path: string,
    count: number,
    private readonly seal: Seal,
  ) {
    this.fd = openSync(path, "wx");
    this.at = SEAL_BYTES + tableBytes(count);
    this.table = {
      count,
      offsets: new Float64Array(count),
      lengths: new Uint32Array(count),
      digests: new Uint8Array(count * 32),
    };
  }

  /** Writes chunk `index` (0-based); a chunk written again replaces the earlier one. */
  add(index: number, chunk: Uint8Array): void {
    if (!Number.isSafeInteger(index) || index < 0 || index >= this.table.count)
      throw new RangeError(`chunk ${index} is outside the file's ${this.table.count}`);
    writeAll(this.fd, chunk, this.at);
    this.table.offsets[index] = this.at;
    this.table.lengths[index] = chunk.length;
    this.table.digests.set(digestOf(chunk), index * 32);
    this.at += chunk.length;
  }

  /** Whether chunk `index` was written. */
  has(index: number): boolean {
    return this.table.lengths[index] > 0;
  }

  /** Writes the sealed table and closes the file. */
  finish(): void {
    const table = encodeTable(this.table);
    try {
      writeAll(this.fd, Buffer.concat([this.seal(table), table]), 0);
    } finally {
      closeSync(this.fd);
    }
  }

  /** Closes the file without finishing it (the caller removes it). */
  abandon(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Already closed by a failed finish.
    }
  }
}

function writeAll(fd: number, data: Uint8Array, position: number): void {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done, position + done);
}

/** A whole chunked file read back: every chunk checked, undefined for a chunk not held. */
export function splitChunks(
  data: Buffer,
  seal: Seal,
  maxCount: number,
): { table: ChunkTable; chunks: (Buffer | undefined)[] } | undefined {
  const table = decodeTable(data, data.length, seal, maxCount);
  if (!table) return undefined;
  const chunks: (Buffer | undefined)[] = [];
  for (let i = 0; i < table.count; i++) {
    const chunk = chunkIn(data, table, i);
    if (chunk === null) return undefined;
    chunks.push(chunk);
  }
  return { table, chunks };
}

/** Chunk `index` of a file's bytes: undefined when not held, null when it fails its digest. */
function chunkIn(data: Buffer, table: ChunkTable, index: number): Buffer | undefined | null {
  const length = table.lengths[index];
  if (length === 0) return undefined;
  const chunk = data.subarray(table.offsets[index], table.offsets[index] + length);
  return chunkChecks(table, index, chunk) ? chunk : null;
}

function chunkChecks(table: ChunkTable, index: number, chunk: Uint8Array): boolean {
  return (
    chunk.length === table.lengths[index] &&
    digestOf(chunk).equals(table.digests.subarray(index * 32, index * 32 + 32))
  );
}

/** The table of a chunked file on disk, read without its chunks; undefined when it is not one. */
export function readChunkTable(path: string, seal: Seal, maxCount: number): ChunkTable | undefined {
  return withRegularFile(path, (fd, size) => {
    const first = readAt(fd, 0, Math.min(size, SEAL_BYTES + 4));
    if (first.length < SEAL_BYTES + 4) return undefined;
    const count = first.readUInt32LE(SEAL_BYTES);
    if (count > maxCount) return undefined;
    const head = readAt(fd, 0, Math.min(size, SEAL_BYTES + tableBytes(count)));
    return decodeTable(head, size, seal, maxCount);
  });
}

/**
 * Chunk `index` of a chunked file on disk whose table was read before: undefined when not held,
 * null when the file no longer holds it as the table says (damaged, or replaced since).
 */
export function readChunk(path: string, table: ChunkTable, index: number): Buffer | undefined | null {
  const length = table.lengths[index];
  if (length === 0) return undefined;
  const chunk = withRegularFile(path, (fd) => readAt(fd, table.offsets[index], length));
  return chunk && chunkChecks(table, index, chunk) ? chunk : null;
}

/** Runs `read` on a regular file (never waits on a FIFO put in its place); undefined when it is not one. */
function withRegularFile<T>(path: string, read: (fd: number, size: number) => T): T | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    return stat.isFile() ? read(fd, stat.size) : undefined;
  } finally {
    closeSync(fd);
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, out, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done === length ? out : out.subarray(0, done);
}
