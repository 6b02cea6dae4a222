/**
 * A source's kind, recognised by its content, never by its name: the PDF header, a zip container
 * (its kind from its entries, zip-kind.ts), the root element of XML, HTML by its markup, and
 * otherwise text, Markdown when its lines carry Markdown's block syntax. Binary, empty and unknown
 * content is CONTENT_NOT_SUPPORTED.
 */

import { CiteproofError } from "../../errors.js";
import type { SourceKind } from "./model.js";
import { detectZipKind } from "./zip-kind.js";

/** How far into the source the sniffing looks, in bytes. */
const SNIFF_BYTES = 64 * 1024;

export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be";

export interface Detected {
  kind: SourceKind;
  /** For a text kind: the encoding its byte-order mark declares (UTF-8 when it has none). */
  encoding?: TextEncoding;
  /** Bytes of byte-order mark before the text. */
  bomBytes?: number;
}

/** The kind of the source's bytes; `origin` names it in messages. */
export function detectKind(bytes: Uint8Array, origin: string): Detected {
  if (bytes.length === 0) throw new CiteproofError("CONTENT_NOT_SUPPORTED", `${origin} is empty`);
  if (hasPdfHeader(bytes)) return { kind: "pdf" };
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]))
    return { kind: detectZipKind(bytes, origin) };
  const { encoding, bomBytes } = byteOrderMark(bytes);
  const head = sniffText(bytes, encoding, bomBytes);
  if (encoding === "utf-8" && looksBinary(bytes.subarray(bomBytes, bomBytes + SNIFF_BYTES)))
    throw new CiteproofError(
      "CONTENT_NOT_SUPPORTED",
      `${origin} is binary content of a kind no reader takes`,
    );
  const markup = markupKind(head);
  if (markup === "unknown-xml")
    throw new CiteproofError(
      "CONTENT_NOT_SUPPORTED",
      `${origin} is XML whose root element <${xmlRoot(head) ?? "?"}> no reader takes (HTML, XHTML and JATS are read)`,
    );
  const kind = markup ?? (looksLikeMarkdown(head) ? "markdown" : "text");
  return { kind, encoding, bomBytes };
}

function hasPdfHeader(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 1024)).toString("latin1").includes("%PDF-");
}

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

function byteOrderMark(bytes: Uint8Array): { encoding: TextEncoding; bomBytes: number } {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return { encoding: "utf-8", bomBytes: 3 };
  if (startsWith(bytes, [0xff, 0xfe])) return { encoding: "utf-16le", bomBytes: 2 };
  if (startsWith(bytes, [0xfe, 0xff])) return { encoding: "utf-16be", bomBytes: 2 };
  return { encoding: "utf-8", bomBytes: 0 };
}

/** The head of the text, decoded leniently: only its markup, which is ASCII, is looked at. */
function sniffText(bytes: Uint8Array, encoding: TextEncoding, bomBytes: number): string {
  const head = bytes.subarray(bomBytes, bomBytes + SNIFF_BYTES);
  return new TextDecoder(encoding === "utf-8" ? "latin1" : encoding).decode(head);
}

/**
 * NUL, or more than one in fifty bytes a C0 control that text does not hold (tab, line feed,
 * vertical tab, form feed, carriage return and escape are text's).
 */
function looksBinary(head: Uint8Array): boolean {
  let controls = 0;
  for (const b of head) {
    if (b === 0) return true;
    if (b < 0x20 && !(b >= 0x09 && b <= 0x0d) && b !== 0x1b) controls++;
  }
  return controls * 50 > head.length;
}

const XML_PROLOG = /^\s*<\?xml[\s?]/u;
const HTML_HINTS =
  /<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<(?:p|div|article|main|section|h[1-6]|title|meta|table|ul|ol|span|a\s+href)[\s>]/iu;

/** "html", "xhtml", "jats", "unknown-xml" (XML no reader takes), or undefined when the text is not markup. */
function markupKind(head: string): SourceKind | "unknown-xml" | undefined {
  const root = xmlRoot(head);
  const start = head.trimStart();
  if (XML_PROLOG.test(head) || (root !== undefined && start.startsWith("<"))) {
    const name = root?.toLowerCase().replace(/^[\w.-]+:/u, "");
    if (name === "article" && isJats(head)) return "jats";
    // An XHTML namespace alone does not make XML: HTML5 pages carry it too (pandoc's do).
    if (name === "html") return XML_PROLOG.test(head) ? "xhtml" : "html";
    if (XML_PROLOG.test(head) || /^<!doctype\s+(?!html)/iu.test(start)) return "unknown-xml";
  }
  if (!HTML_HINTS.test(head.slice(0, 4096)) || !start.startsWith("<")) return undefined;
  // A README opening with a comment or a centred logo is Markdown with HTML in it: its own headings or
  // code fences stand at the start of lines, which a page without <html>, <head> or <body> lacks.
  return !HTML_DOCUMENT.test(head) && MARKDOWN_BLOCKS.some((p) => p.test(outsideTags(head)))
    ? undefined
    : "html";
}

const HTML_DOCUMENT = /<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]/iu;

/** The text with comments and the lines that open with a tag set aside. */
function outsideTags(head: string): string {
  return head
    .replace(/<!--[\s\S]*?-->/gu, "")
    .replace(/\r\n?/gu, "\n")
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("<"))
    .join("\n");
}

/** The name of the first element, past the prolog, comments, processing instructions and doctype. */
function xmlRoot(head: string): string | undefined {
  const stripped = head
    .replace(/<\?[\s\S]*?\?>/gu, "")
    .replace(/<!--[\s\S]*?-->/gu, "")
    .replace(/<!doctype[^>[]*(?:\[[\s\S]*?\])?\s*>/iu, "");
  return /<([A-Za-z_][\w.:-]*)/u.exec(stripped)?.[1];
}

/** A JATS or NLM article: its doctype, its DTD version, or the elements only JATS has. */
function isJats(head: string): boolean {
  return /JATS|NLM|journalpublishing|archivearticle|dtd-version=|<front[\s>]|<article-meta[\s>]/u.test(head);
}

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+\S|$)/mu;
const SETEXT_HEADING = /^ {0,3}\S.*\n {0,3}(?:=+|-{3,})[ \t]*$/mu;
const FENCE = /^ {0,3}(?:```|~~~)/mu;
const MARKDOWN_BLOCKS = [/^ {0,3}#{1,6}[ \t]+\S/mu, FENCE];
const LINK = /\[[^\]\n]+\]\([^)\s]+\)|^\s{0,3}\[[^\]\n]+\]:\s+\S/mu;
const EMPHASIS = /(?:^|\s)(?:\*\*|__)\S[^\n]*?\S(?:\*\*|__)(?:\s|[.,;:]|$)/mu;

/**
 * Markdown when its lines carry a heading's `#` or underline, a code fence, a link, or strong
 * emphasis; text that only has paragraphs and lists reads the same either way.
 */
function looksLikeMarkdown(head: string): boolean {
  const text = head.replace(/\r\n?/gu, "\n");
  return [ATX_HEADING, SETEXT_HEADING, FENCE, LINK, EMPHASIS].some((pattern) => pattern.test(text));
}
