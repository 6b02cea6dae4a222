/**
 * Facts decided from a whole document's text that cost more to decide than to read back (the
 * document-wide region rules, the printed labels), kept between runs beside the document's
 * extracted text. Each record is named with the derivation key of the code that decides it
 * (util/derivation-graph.ts), so a change to the rules never reads back what the older rules decided.
 * A record is a cache: losing it, or refusing it, only means deciding again.
 */
import { derivationKey } from "../util/derivation.js";

export interface DerivedRecords {
  /** The value stored under the name; undefined when there is none or the store refused it. */
  read(name: string): unknown;
  /** Stores a value under the name; a store that cannot write drops it. */
  write(name: string, value: unknown): void;
}

/** `<kind>-<digest>`, the digest of the code that decides the record. */
export function recordName(kind: "regions-pages" | "printed-labels"): string {
  return `${kind}-${derivationKey(kind)}`;
}
