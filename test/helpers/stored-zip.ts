/** A zip file of stored (uncompressed) entries, written byte by byte, for tests of zip containers. */
import { crc32 } from "node:zlib";

export interface ZipEntry {
  name: string;
  data: string | Uint8Array;
}

export function storedZip(entries: ZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const data = Buffer.from(entry.data);
    const crc = crc32(data);
    // Version, crc and sizes stand at the same places in both headers, 10 bytes later in the central one.
    const local = header(30, 0x04034b50, 0, crc, data.length, name.length);
    const central = header(46, 0x02014b50, 2, crc, data.length, name.length);
    central.writeUInt16LE(20, 4);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
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

function header(
  size: number,
  signature: number,
  shift: number,
  crc: number,
  length: number,
  nameLength: number,
): Buffer {
  const out = Buffer.alloc(size);
  out.writeUInt32LE(signature, 0);
  out.writeUInt16LE(20, 4 + shift);
  out.writeUInt32LE(crc, 14 + shift);
  out.writeUInt32LE(length, 18 + shift);
  out.writeUInt32LE(length, 22 + shift);
  out.writeUInt16LE(nameLength, 26 + shift);
  return out;
}
