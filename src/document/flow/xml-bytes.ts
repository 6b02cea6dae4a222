/**
 * An XML part's bytes as text: the byte order mark or the declaration's encoding honoured (UTF-8,
 * UTF-16 either way, and the single-byte encodings TextDecoder knows); bytes that are not valid in their
 * encoding are CONTENT_INVALID naming the part, never replaced silently.
 */
import { TextDecoder } from "node:util";
import { CiteproofError } from "../../errors.js";

function encodingOf(bytes: Uint8Array): { encoding: string; skip: number } {
  const [a, b, c, d] = bytes;
  if (a === 0xef && b === 0xbb && c === 0xbf) return { encoding: "utf-8", skip: 3 };
  if (a === 0xff && b === 0xfe) return { encoding: "utf-16le", skip: 2 };
  if (a === 0xfe && b === 0xff) return { encoding: "utf-16be", skip: 2 };
  if (a === 0x3c && b === 0x00 && c === 0x3f && d === 0x00) return { encoding: "utf-16le", skip: 0 };
  if (a === 0x00 && b === 0x3c && c === 0x00 && d === 0x3f) return { encoding: "utf-16be", skip: 0 };
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 200));
  const declared = /^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
  return { encoding: declared === undefined || declared === "utf8" ? "utf-8" : declared, skip: 0 };
}

/** `part` is the part's name, `where` how messages name it. */
export function xmlText(bytes: Uint8Array, part: string, where = part): string {
  const { encoding, skip } = encodingOf(bytes);
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding, { fatal: true });
  } catch {
    throw new CiteproofError(
      "CONTENT_NOT_SUPPORTED",
      `${where} is in the encoding ${encoding}, which is not read`,
      {
        part,
      },
    );
  }
  try {
    return decoder.decode(bytes.subarray(skip));
  } catch {
    throw new CiteproofError("CONTENT_INVALID", `${where} is not valid ${encoding}`, { part });
  }
}
