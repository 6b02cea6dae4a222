/**
 * A text source's bytes as a string: a byte-order mark first, then the charset the transport declares
 * (HTTP's Content-Type), then the one the source declares (an HTML <meta>, an XML declaration), then
 * UTF-8; a label TextDecoder does not know counts as none. Legacy encodings (windows-1252, the
 * ISO 8859 family, Shift_JIS, EUC-KR, GBK...) are decoded by TextDecoder. UTF-8 and UTF-16 are decoded strictly: a byte
 * sequence not valid in them is CONTENT_INVALID naming where, never read as U+FFFD.
 */

import { CiteproofError } from "../../errors.js";

/** The charset an HTML <meta> or an XML declaration names in the source's head, if any. */
export function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 2048)).toString("latin1");
  return (
    /<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)/iu.exec(head)?.[1] ??
    /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9_.:-]+)["']/u.exec(head)?.[1]
  );
}

/**
 * Decodes the text. `part` names it in messages ("page.html", "word/document.xml"); `declared` are
 * the charsets declared for it, the one that wins first (a legacy one is read leniently, as browsers
 * read it).
 */
export function decodeText(bytes: Uint8Array, part: string, ...declared: (string | undefined)[]): string {
  const bom = byteOrderMark(bytes);
  const label = bom ?? declared.map(knownLabel).find((known) => known !== undefined) ?? "utf-8";
  const strict = /^utf-?(?:8|16)/iu.test(new TextDecoder(label).encoding);
  try {
    const text = new TextDecoder(label, { fatal: strict, ignoreBOM: false }).decode(bytes);
    return new TextDecoder(label).encoding === "windows-1252" ? windows1252(text) : text;
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw new CiteproofError(
      "CONTENT_INVALID",
      `${part} is not valid ${label.toUpperCase()}${at >= 0 && label === "utf-8" ? ` (at byte ${at})` : ""}`,
      { part },
    );
  }
}

function byteOrderMark(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return undefined;
}

/** The label when the decoder knows it; an unknown label is as good as none. */
function knownLabel(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    new TextDecoder(label);
    return label;
  } catch {
    return undefined;
  }
}

/** Offset of the first byte of the first sequence that is not valid UTF-8, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const second = bytes[i + 1];
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    if (length > 1 && (second < low || second > high)) return i;
    for (let k = 2; k < length; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return i;
    i += length;
  }
  return -1;
}

/** Bytes 0x80-0x9F as windows-1252 has them (curly quotes, dashes, the euro); Node's decoder gives C1 controls. */
const CP1252 =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function windows1252(text: string): string {
  return text.replace(/[\u0080-\u009f]/gu, (c) => CP1252[c.charCodeAt(0) - 0x80]);
}
