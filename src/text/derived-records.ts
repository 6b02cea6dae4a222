/**
 * Facts decided from a whole document's text that cost more to decide than to read back (the
 * document-wide region rules, the printed labels), kept between runs beside the document's
 * extracted text. Each record is named with a digest of the source of the code that decides it, so
 * a change to the rules never reads back what the older rules decided. A record is a cache: losing
 * it, or refusing it, only means deciding again.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface DerivedRecords {
  /** The value stored under the name; undefined when there is none or the store refused it. */
  read(name: string): unknown;
  /** Stores a value under the name; a store that cannot write drops it. */
  write(name: string, value: unknown): void;
}

const names = new Map<string, string | null>();

/**
 * `<kind>-<digest>`, the digest over the source files (as module URLs) of the code that decides the
 * record; undefined when a file cannot be read (then nothing is kept).
 */
export function recordName(kind: string, moduleUrls: readonly string[]): string | undefined {
  let name = names.get(kind);
  if (name === undefined) {
    try {
      const hash = createHash("sha256").update(kind);
      for (const url of moduleUrls) hash.update("\0").update(readFileSync(fileURLToPath(url)));
      name = `${kind}-${hash.digest("hex").slice(0, 16)}`;
    } catch {
      name = null;
    }
    names.set(kind, name);
  }
  return name ?? undefined;
}
