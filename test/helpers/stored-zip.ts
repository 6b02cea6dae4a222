/** A zip file of stored (uncompressed) entries, for tests of zip containers (zip-file.ts writes it). */
import { zipFile } from "./zip-file.js";

export interface ZipEntry {
  name: string;
  data: string | Uint8Array;
}

export function storedZip(entries: ZipEntry[]): Uint8Array {
  return zipFile(entries);
}
