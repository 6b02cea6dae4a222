// A zip file written byte by byte for the attack suite (entries stored or deflated; an entry may give
// raw deflate bytes and lie about the size they inflate to), as test/helpers/zip-file.ts does.
import { crc32, deflateRawSync } from "node:zlib";

export function zipFile(entries) {
  const locals = [];
  const centrals = [];
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
    const fields = (header, at) => {
      header.writeUInt16LE(20, at);
      header.writeUInt16LE(0x800, at + 2);
      header.writeUInt16LE(body.method, at + 4);
      header.writeUInt32LE(body.crc >>> 0, at + 10);
      header.writeUInt32LE(body.bytes.length, at + 14);
      header.writeUInt32LE(body.size >>> 0, at + 18);
      header.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(entry.unix ? 0x0314 : 20, 4);
    fields(central, 6);
    if (entry.unix) central.writeUInt32LE((entry.unix << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body.bytes);
    centrals.push(central, name);
    offset += 30 + name.length + body.bytes.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
