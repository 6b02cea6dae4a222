// The chunked file the document text is stored in: chunks written in any order, some left out, read
// whole or one at a time; a chunk or a table that does not check out is refused, never returned.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ChunkedFileWriter,
  readChunk,
  readChunkTable,
  splitChunks,
} from "../../src/document/chunked-file.js";
import { tempDir } from "../helpers/fixture-files.js";

const tmp = tempDir();
afterAll(() => tmp.remove());
let counter = 0;

const seal = (table: Uint8Array) => createHash("sha256").update("binding\0").update(table).digest();
const otherSeal = (table: Uint8Array) => createHash("sha256").update("another file\0").update(table).digest();
const chunk = (i: number) => Buffer.from(`chunk number ${i} `.repeat(i + 1));

/** A file of 5 chunks written in the order 3, 0, 4, 1 (chunk 2 left out). */
function written(): string {
  const path = join(tmp.dir, `file-${counter++}`);
  const writer = new ChunkedFileWriter(path, 5, seal);
  for (const i of [3, 0, 4, 1]) writer.add(i, chunk(i));
  writer.finish();
  return path;
}

describe("chunked file", () => {
  it("gives back each chunk written, whole or one at a time, and none for a chunk left out", () => {
    const path = written();
    const whole = splitChunks(readFileSync(path), seal, 10);
    expect(whole?.chunks.map((c) => c?.toString())).toEqual([
      chunk(0).toString(),
      chunk(1).toString(),
      undefined,
      chunk(3).toString(),
      chunk(4).toString(),
    ]);
    const table = readChunkTable(path, seal, 10);
    expect(table?.count).toBe(5);
    expect(readChunk(path, table!, 4)?.toString()).toBe(chunk(4).toString());
    expect(readChunk(path, table!, 2)).toBeUndefined();
  });

  it("refuses a table sealed for another file, or with more chunks than allowed", () => {
    const path = written();
    expect(readChunkTable(path, otherSeal, 10)).toBeUndefined();
    expect(splitChunks(readFileSync(path), otherSeal, 10)).toBeUndefined();
    expect(readChunkTable(path, seal, 4)).toBeUndefined();
  });

  it("refuses a damaged chunk, whole or alone, and still reads the others alone", () => {
    const path = written();
    const table = readChunkTable(path, seal, 10)!;
    const data = readFileSync(path);
    data[table.offsets[3] + 2] ^= 0x20;
    writeFileSync(path, data);
    expect(splitChunks(readFileSync(path), seal, 10)).toBeUndefined();
    expect(readChunk(path, table, 3)).toBeNull();
    expect(readChunk(path, table, 0)?.toString()).toBe(chunk(0).toString());
  });

  it("refuses a table whose entries were changed, and one that points past the file's end", () => {
    const path = written();
    const data = readFileSync(path);
    // The table starts after the seal and the count; a chunk's length grows by one.
    data.writeUInt32LE(data.readUInt32LE(36 + 8) + 1, 36 + 8);
    writeFileSync(path, data);
    expect(readChunkTable(path, seal, 10)).toBeUndefined();
    const truncated = written();
    writeFileSync(truncated, readFileSync(truncated).subarray(0, 300));
    expect(readChunkTable(truncated, seal, 10)).toBeUndefined();
    expect(splitChunks(readFileSync(truncated), seal, 10)).toBeUndefined();
  });

  it("reads nothing from a file that is not regular or not there", () => {
    expect(readChunkTable(tmp.dir, seal, 10)).toBeUndefined();
    expect(readChunkTable(join(tmp.dir, "absent"), seal, 10)).toBeUndefined();
  });

  it("refuses a chunk outside the file", () => {
    const writer = new ChunkedFileWriter(join(tmp.dir, `file-${counter++}`), 2, seal);
    expect(() => writer.add(2, chunk(0))).toThrow(RangeError);
    writer.abandon();
  });
});
