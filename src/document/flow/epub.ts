/**
 * The EPUB 2 and 3 reader: the spine's XHTML documents in reading order, each read as the HTML reader
 * reads a page (headings, paragraphs, captions, notes, references; navigation dropped). A document
 * without headings of its own takes its chapter title from the table of contents (nav or NCX); the
 * page list, when the book has one, gives printed page labels. Images, SVG spine items, style sheets
 * and fonts are left out.
 */
import { FlowBuilder } from "./builder.js";
import { checkDeadline, checkMimetype, zipLimitsFor } from "./container.js";
import { promoteHeadings, serialize } from "./epub-headings.js";
import { readPackage } from "./epub-package.js";
import { type PageTarget, placePages, wordsAfterIds } from "./epub-pages.js";
import { readNavigation } from "./epub-toc.js";
import { appendHtml } from "./html.js";
import type { FlowDocument, FlowLimits, FlowReader, SourceBytes } from "./model.js";
import { descendants, parseXml } from "./xml.js";
import { xmlText } from "./xml-bytes.js";
import { ZipArchive } from "./zip.js";

const MEDIA_TYPE = "application/epub+zip";
const XHTML = "http://www.w3.org/1999/xhtml";
const DOCUMENT_TYPES = new Set(["application/xhtml+xml", "text/html", "application/x-dtbook+xml"]);

export function readEpub(source: SourceBytes, limits: FlowLimits): FlowDocument {
  const zip = ZipArchive.open(source.bytes, source.origin, zipLimitsFor(limits));
  checkMimetype(zip, MEDIA_TYPE, "EPUB");
  const pkg = readPackage(zip, limits);
  const nav = readNavigation(zip, pkg, limits);
  const builder = new FlowBuilder("epub", source.sha256);
  if (pkg.title !== undefined) builder.title = pkg.title;
  if (pkg.language !== undefined) builder.language = pkg.language;
  const pages: PageTarget[] = [];
  for (const item of pkg.spine) {
    if (!DOCUMENT_TYPES.has(item.mediaType)) continue;
    checkDeadline(limits, `${source.origin} part ${item.name}`);
    const where = `${source.origin} part ${item.name}`;
    const text = xmlText(zip.read(item.name), item.name, where);
    const tree = parseXml(text, item.name, {
      htmlEntities: true,
      maxDepth: limits.maxDepth,
      within: source.origin,
    });
    const headed = [1, 2, 3, 4, 5, 6].some((n) => descendants(tree.root, XHTML, `h${n}`).length > 0);
    const entries = nav.toc.filter((entry) => entry.name === item.name);
    // Headings set as styled paragraphs take their rank from the table of contents.
    const promoted = !headed && promoteHeadings(tree.root, entries);
    const chapter = headed || promoted ? undefined : entries[0];
    if (chapter !== undefined) builder.heading(chapter.depth, chapter.label);
    const own = nav.pages.filter((p) => p.name === item.name);
    const after = wordsAfterIds(tree.root, new Set(own.map((p) => p.fragment)));
    // A page at the document's start starts with the chapter title set before it.
    const opening = [...(chapter?.label.split(/\s+/u) ?? []), ...(after.get("") ?? [])];
    for (const page of own)
      pages.push({
        label: page.label,
        words: page.fragment === "" ? opening : (after.get(page.fragment) ?? []),
      });
    appendHtml(builder, promoted ? serialize(tree.root) : text, { limits, part: where, xml: true });
  }
  const doc = builder.finish();
  const placed = placePages(doc.text, pages);
  if (placed.length > 0) doc.pageLabels = placed;
  return doc;
}

export const epubReader: FlowReader = {
  kind: "epub",
  read: async (source, limits) => readEpub(source, limits),
};
