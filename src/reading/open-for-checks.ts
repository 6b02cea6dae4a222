/**
 * Opens a document for checks. When some of them need the anchors (equation and figure records or
 * citations), the glyph geometry is held during extraction so the PDF is not extracted twice, and
 * the layout rules are loaded only then.
 */
import { type OpenedDocument, type OpenOptions, openDocument } from "../document/open.js";
import type { PdfBytes } from "../source/file.js";

export async function openForChecks(
  input: string | PdfBytes,
  options: OpenOptions,
  needsAnchors: boolean,
): Promise<OpenedDocument> {
  if (!needsAnchors) return openDocument(input, options);
  const { openForAnchors } = await import("../layout/anchors.js");
  return openForAnchors(input, options);
}
