/**
 * A zip file written byte by byte, entries stored or deflated, for tests of zip containers; a test may
 * give an entry's inflated bytes as deflated chunks already made (a bomb too big to hold) and lie about
 * its size.
 */
import { crc32, deflateRawSync } from "node:zlib";

export interface ZipFileEntry {
  name: string;
  data?: string | Uint8Array;
  /** Deflate the data (method 8) rather than store it. */
  deflate?: boolean;
  /** Raw deflate bytes and the size and CRC they inflate to, when the data is too big to hold. */
  raw?: { deflated: Uint8Array; size: number; crc: number };
}

export function zipFile(entries: ZipFileEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const plain = Buffer.from(entry.data ?? "");
    const body =
      entry.raw !== undefined
        ? { method: 8, bytes: Buffer.from(entry.raw.deflated), size: entry.raw.size, crc: entry.raw.crc }
        : entry.deflate === true
          ? { method: 8, bytes: deflateRawSync(plain), size: plain.length, crc: crc32(plain) }
          : { method: 0, bytes: plain, size: plain.length, crc: crc32(plain) };
    // From "version needed" on, the central header repeats the local one's fields two bytes later.
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at);
      header.writeUInt16LE(0x800, at + 2);
      header.writeUInt16LE(body.method, at + 4);
      header.writeUInt32LE(body.crc, at + 10);
      header.writeUInt32LE(body.bytes.length, at + 14);
      header.writeUInt32LE(body.size, at + 18);
      header.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    fields(central, 6);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body.bytes);
    centrals.push(central, name);
    offset += 30 + name.length + body.bytes.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}
