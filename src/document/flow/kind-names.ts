/** The name of each source kind as messages print it (a module of its own: a PDF's report names no reader). */
import type { FlowKind } from "./model.js";

export const KIND_NAMES: Record<FlowKind, string> = {
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
  return kind === "pdf" ? "PDF" : KIND_NAMES[kind];
}
