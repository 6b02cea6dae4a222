/**
 * The kind of a zip container, from its entries: EPUB and ODT declare theirs in a `mimetype` entry
 * (read bounded, stored or not), an EPUB without one is known by `META-INF/container.xml` beside a
 * package file, DOCX holds `word/document.xml` beside `[Content_Types].xml`. A zip of anything else is
 * CONTENT_NOT_SUPPORTED; a zip whose directory cannot be read is CONTENT_INVALID.
 */

import { CiteproofError } from "../../errors.js";
import type { FlowKind } from "./model.js";
import { ZipArchive } from "./zip.js";

const MEDIA_TYPES: Record<string, FlowKind> = {
  "application/epub+zip": "epub",
  "application/vnd.oasis.opendocument.text": "odt",
};

/** The kind a zip container holds. */
export function detectZipKind(bytes: Uint8Array, origin: string): FlowKind {
  const zip = ZipArchive.open(bytes, origin);
  if (zip.has("mimetype")) {
    const declared = new TextDecoder("latin1").decode(zip.read("mimetype").subarray(0, 200)).trim();
    const kind = MEDIA_TYPES[declared];
    if (kind) return kind;
    throw new CiteproofError(
      "CONTENT_NOT_SUPPORTED",
      `${origin} is a zip container of ${JSON.stringify(declared.slice(0, 80))}, which no reader takes`,
    );
  }
  if (zip.has("META-INF/container.xml") && zip.names().some((name) => name.endsWith(".opf"))) return "epub";
  if (zip.has("word/document.xml") && zip.has("[Content_Types].xml")) return "docx";
  throw new CiteproofError(
    "CONTENT_NOT_SUPPORTED",
    `${origin} is a zip file but not an EPUB, DOCX or ODT document (no mimetype entry, no word/document.xml)`,
  );
}
