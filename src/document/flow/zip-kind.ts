/**
 * The kind of a zip container, from its entries alone (nothing is inflated): EPUB and ODT declare
 * theirs in a stored `mimetype` entry, DOCX holds `word/document.xml` beside `[Content_Types].xml`.
 * A zip of anything else is CONTENT_NOT_SUPPORTED; a zip whose directory cannot be read is
 * CONTENT_INVALID.
 */

import { CiteproofError } from "../../errors.js";
import type { FlowKind } from "./model.js";

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
/** The end record (22 bytes) and the longest comment a zip may carry after it. */
const EOCD_SEARCH = 22 + 0xffff;
/** More entries than any document container holds: the directory is not walked past it. */
const MAX_ENTRIES = 200_000;

const MEDIA_TYPES: Record<string, FlowKind> = {
  "application/epub+zip": "epub",
  "application/vnd.oasis.opendocument.text": "odt",
};

export interface ZipEntryName {
  name: string;
  /** Offset of the entry's local header in the zip. */
  localOffset: number;
}

/** The kind a zip container holds. */
export function detectZipKind(bytes: Uint8Array, origin: string): FlowKind {
  const entries = zipEntryNames(bytes, origin);
  const mimetype = entries.find((e) => e.name === "mimetype");
  const declared = mimetype ? storedText(bytes, mimetype.localOffset) : undefined;
  if (declared !== undefined) {
    const kind = MEDIA_TYPES[declared.trim()];
    if (kind) return kind;
    throw new CiteproofError(
      "CONTENT_NOT_SUPPORTED",
      `${origin} is a zip container of ${JSON.stringify(declared.trim().slice(0, 80))}, which no reader takes`,
    );
  }
  const names = new Set(entries.map((e) => e.name));
  if (names.has("word/document.xml") && names.has("[Content_Types].xml")) return "docx";
  throw new CiteproofError(
    "CONTENT_NOT_SUPPORTED",
    `${origin} is a zip file but not an EPUB, DOCX or ODT document (no mimetype entry, no word/document.xml)`,
  );
}

/** The names in the zip's central directory, in its order. */
export function zipEntryNames(bytes: Uint8Array, origin: string): ZipEntryName[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndRecord(view);
  if (eocd < 0) throw invalid(origin, "no end of central directory record");
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const entries: ZipEntryName[] = [];
  const names = new TextDecoder("utf-8");
  for (let i = 0; i < Math.min(count, MAX_ENTRIES); i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_SIGNATURE)
      throw invalid(origin, `central directory entry ${i + 1} is damaged`);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localOffset = view.getUint32(at + 42, true);
    if (at + 46 + nameLength > bytes.length)
      throw invalid(origin, `central directory entry ${i + 1} is cut short`);
    entries.push({ name: names.decode(bytes.subarray(at + 46, at + 46 + nameLength)), localOffset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function findEndRecord(view: DataView): number {
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - EOCD_SEARCH; at--)
    if (view.getUint32(at, true) === EOCD_SIGNATURE) return at;
  return -1;
}

/** The content of a stored (uncompressed), short entry, or undefined when it is compressed or damaged. */
function storedText(bytes: Uint8Array, localOffset: number): string | undefined {
  if (localOffset + 30 > bytes.length) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(localOffset, true) !== LOCAL_SIGNATURE) return undefined;
  if (view.getUint16(localOffset + 8, true) !== 0) return undefined;
  const size = view.getUint32(localOffset + 18, true);
  const start =
    localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
  if (size > 200 || start + size > bytes.length) return undefined;
  return new TextDecoder("latin1").decode(bytes.subarray(start, start + size));
}

function invalid(origin: string, what: string): CiteproofError {
  return new CiteproofError("CONTENT_INVALID", `${origin} is a damaged zip file: ${what}`, {
    part: "zip directory",
  });
}
