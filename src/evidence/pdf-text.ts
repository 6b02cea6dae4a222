/**
 * A PDF's text for a snapshot: every page's text from the document model, in page order, joined by
 * a form feed, and the page map (the code point offset where each page's text starts).
 */
import { EXTRACTOR_VERSION } from "../document/model.js";
import { type OpenOptions, openDocument } from "../document/open.js";
import type { PdfBytes } from "../source/file.js";
import { codePointLength } from "./codepoints.js";
import { PAGE_SEPARATOR } from "./locate.js";
import type { DocumentMap } from "./snapshot.js";

export interface PdfText {
  text: string;
  document: DocumentMap;
  /** Pages the engine could not extract (their text is empty). */
  failedPages: number[];
}

export async function pdfToText(input: string | PdfBytes, options: OpenOptions = {}): Promise<PdfText> {
  const doc = await openDocument(input, {
    ...options,
    pages: undefined,
    withGeometry: options.withGeometry === true,
  });
  const pages: DocumentMap["pages"] = [];
  const parts: string[] = [];
  const failedPages: number[] = [];
  let offset = 0;
  for (let page = 1; page <= doc.pageCount; page++) {
    const pageText = doc.pages[page - 1];
    if (page > 1) {
      parts.push(PAGE_SEPARATOR);
      offset += 1;
    }
    pages.push({ page, start: offset });
    const text = pageText?.text ?? "";
    if (!pageText || pageText.extractionError) failedPages.push(page);
    parts.push(text);
    offset += codePointLength(text);
  }
  return {
    text: parts.join(""),
    document: { sha256: doc.sha256, extractor_version: EXTRACTOR_VERSION, page_count: doc.pageCount, pages },
    failedPages,
  };
}
