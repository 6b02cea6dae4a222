/**
 * The reader of each flow kind, loaded when a source of that kind is read. A kind without a reader
 * in this version is CONTENT_NOT_SUPPORTED.
 */

import { CiteproofError } from "../../errors.js";
import type { FlowKind, FlowReader } from "./model.js";

const READERS: Partial<Record<FlowKind, () => Promise<FlowReader>>> = {
  html: () => import("./html.js").then((m) => m.htmlReader),
  xhtml: () => import("./html.js").then((m) => m.xhtmlReader),
  markdown: () => import("./markdown.js").then((m) => m.markdownReader),
  text: () => import("./text.js").then((m) => m.textReader),
  docx: () => import("./docx.js").then((m) => m.docxReader),
  odt: () => import("./odt.js").then((m) => m.odtReader),
  jats: () => import("./jats.js").then((m) => m.jatsReader),
  epub: () => import("./epub.js").then((m) => m.epubReader),
};

const NAMES: Record<FlowKind, string> = {
  html: "HTML",
  xhtml: "XHTML",
  epub: "EPUB",
  docx: "DOCX",
  odt: "ODT",
  jats: "JATS",
  markdown: "Markdown",
  text: "plain text",
};

/** The name of a kind as messages print it. */
export function kindName(kind: FlowKind | "pdf"): string {
  return kind === "pdf" ? "PDF" : NAMES[kind];
}

export async function readerOf(kind: FlowKind, origin: string): Promise<FlowReader> {
  const load = READERS[kind];
  if (!load)
    throw new CiteproofError(
      "CONTENT_NOT_SUPPORTED",
      `${origin} is ${NAMES[kind]}, which this version does not read`,
    );
  return load();
}
