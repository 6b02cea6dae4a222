/**
 * Small DOCX, ODT and EPUB containers written part by part for tests of odd and hostile cases: only the
 * parts a reader needs, in each format's own markup.
 */
import { type ZipFileEntry, zipFile } from "./zip-file.js";

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

export function docx(body: string, parts: ZipFileEntry[] = [], relations: string[] = []): Uint8Array {
  const rels = relations
    .map((type, i) => `<Relationship Id="r${i}" Type="${REL}/${type}" Target="${type}.xml"/>`)
    .join("");
  return zipFile([
    {
      name: "[Content_Types].xml",
      data: `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    },
    {
      name: "_rels/.rels",
      data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    },
    {
      name: "word/_rels/document.xml.rels",
      data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
    },
    {
      name: "word/document.xml",
      data: `<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
      deflate: true,
    },
    ...parts.map((p) => ({ ...p, name: `word/${p.name}` })),
  ]);
}

/** A paragraph of style `style` (an id) holding runs of `text`. */
export function wp(text: string, style?: string, extra = ""): string {
  const pPr =
    style === undefined && extra === ""
      ? ""
      : `<w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ""}${extra}</w:pPr>`;
  return `<w:p>${pPr}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
}

export function wordPart(name: string, root: string, inner: string): ZipFileEntry {
  return { name: `${name}.xml`, data: `<w:${root} xmlns:w="${W}">${inner}</w:${root}>` };
}

const ODF_NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
].join(" ");

export function odt(body: string, styles = ""): Uint8Array {
  return zipFile([
    { name: "mimetype", data: "application/vnd.oasis.opendocument.text" },
    {
      name: "content.xml",
      data: `<office:document-content ${ODF_NS}><office:automatic-styles>${styles}</office:automatic-styles><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
      deflate: true,
    },
  ]);
}

export interface EpubOptions {
  /** Spine item ids in order; each names `<id>.xhtml` unless `manifest` says otherwise. */
  spine: string[];
  documents: Record<string, string>;
  manifest?: string;
  extra?: ZipFileEntry[];
  spineToc?: string;
}

export function xhtml(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>t</title></head><body>${body}</body></html>`;
}

export function epub(options: EpubOptions): Uint8Array {
  const manifest =
    options.manifest ??
    Object.keys(options.documents)
      .map((id) => `<item id="${id}" href="${id}.xhtml" media-type="application/xhtml+xml"/>`)
      .join("");
  const spine = options.spine.map((id) => `<itemref idref="${id}"/>`).join("");
  return zipFile([
    { name: "mimetype", data: "application/epub+zip" },
    {
      name: "META-INF/container.xml",
      data: `<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`,
    },
    {
      name: "OPS/book.opf",
      data: `<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>A Book</dc:title><dc:language>en</dc:language></metadata><manifest>${manifest}</manifest><spine${options.spineToc ? ` toc="${options.spineToc}"` : ""}>${spine}</spine></package>`,
    },
    ...Object.entries(options.documents).map(([id, data]) => ({
      name: `OPS/${id}.xhtml`,
      data,
      deflate: true,
    })),
    ...(options.extra ?? []),
  ]);
}
