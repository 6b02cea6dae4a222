/**
 * The reader of each flow kind, loaded when a source of that kind is read. A kind without a reader
 * in this version is CONTENT_NOT_SUPPORTED.
 */

import { CiteproofError } from "../../errors.js";
import { KIND_NAMES as NAMES } from "./kind-names.js";
import type { FlowKind, FlowReader } from "./model.js";

export { kindName } from "./kind-names.js";

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

export async function readerOf(kind: FlowKind, origin: string): Promise<FlowReader> {
  const load = READERS[kind];
  if (!load)
    throw new CiteproofError(
      "CONTENT_NOT_SUPPORTED",
      `${origin} is ${NAMES[kind]}, which this version does not read`,
    );
  return load();
}
