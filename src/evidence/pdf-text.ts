/**
 * A PDF's text for a snapshot: every page's text from the document model, in page order, joined by
 * a form feed, the page map (the code point offset where each page's text starts) and the headings its
 * layout shows (font size, bold face, numbering; read from glyph geometry when it was extracted).
 * A page the engine failed on refuses the whole PDF (EXTRACTION_FAILED): a snapshot with a hole
 * would let a later check call words absent that were never read.
 */
import { EXTRACTOR_VERSION } from "../document/model.js";
import { type OpenOptions, openDocument } from "../document/open.js";
import { CiteproofError } from "../errors.js";
import { findHeadings } from "../layout/headings.js";
import type { PdfBytes } from "../source/file.js";
import { codePointLength } from "../util/codepoints.js";
import { PAGE_SEPARATOR } from "./locate.js";
import type { DocumentMap, SectionStart } from "./snapshot.js";

export interface PdfText {
  text: string;
  document: DocumentMap;
  /** Headings the layout shows, at their code point offsets in text; null when there are none. */
  sections: SectionStart[] | null;
}

export async function pdfToText(input: string | PdfBytes, options: OpenOptions = {}): Promise<PdfText> {
  const doc = await openDocument(input, {
    ...options,
    pages: undefined,
    withGeometry: options.withGeometry === true,
  });
  const pages: DocumentMap["pages"] = [];
  const parts: string[] = [];
  let offset = 0;
  for (let page = 1; page <= doc.pageCount; page++) {
    const pageText = doc.pages[page - 1];
    if (page > 1) {
      parts.push(PAGE_SEPARATOR);
      offset += 1;
    }
    pages.push({ page, start: offset });
    if (!pageText || pageText.extractionError !== undefined) {
      const why = pageText?.extractionError ?? "the page was not extracted";
      throw new CiteproofError(
        "EXTRACTION_FAILED",
        `page ${page} of the PDF could not be extracted (${why}); no snapshot is made with a page missing`,
        { page },
      );
    }
    const text = pageText.text;
    parts.push(text);
    offset += codePointLength(text);
  }
  const sections = findHeadings(doc.pages, (page) => doc.geometry.get(page)).map((h) => ({
    start:
      pages[h.page - 1].start + codePointLength((doc.pages[h.page - 1]?.text ?? "").slice(0, h.startUtf16)),
    title: h.title,
  }));
  return {
    text: parts.join(""),
    sections: sections.length > 0 ? sections : null,
    document: { sha256: doc.sha256, extractor_version: EXTRACTOR_VERSION, page_count: doc.pageCount, pages },
  };
}
