/**
 * An EPUB's package: the rootfile `META-INF/container.xml` names, its manifest and its spine resolved
 * to zip entries. A spine that names an item the manifest lacks, a file the archive lacks, or one file
 * twice (a reading order that loops) is CONTENT_INVALID naming it.
 */
import { CiteproofError } from "../../errors.js";
import { readXmlPart } from "./container.js";
import type { FlowLimits } from "./model.js";
import { attr, childElements, descendants, textContent, type XmlElement } from "./xml.js";
import type { ZipArchive } from "./zip.js";
import { resolveZipPath } from "./zip-path.js";

const CONTAINER = "META-INF/container.xml";
const OPF = "http://www.idpf.org/2007/opf";
const DC = "http://purl.org/dc/elements/1.1/";
const CONTAINER_NS = "urn:oasis:names:tc:opendocument:xmlns:container";
const ENCRYPTION = "META-INF/encryption.xml";
const XMLENC = "http://www.w3.org/2001/04/xmlenc#";

export interface ManifestItem {
  id: string;
  name: string;
  mediaType: string;
  properties: string[];
}

export interface EpubPackage {
  opf: string;
  title?: string;
  language?: string;
  manifest: Map<string, ManifestItem>;
  spine: ManifestItem[];
  /** The EPUB 3 navigation document, when the manifest marks one. */
  nav?: ManifestItem;
  /** The EPUB 2 NCX, when the spine or the manifest names one. */
  ncx?: ManifestItem;
}

function invalid(zip: ZipArchive, part: string, why: string): CiteproofError {
  return new CiteproofError("CONTENT_INVALID", `${zip.what} ${why}`, { part });
}

function rootfile(zip: ZipArchive, limits: FlowLimits): string {
  if (!zip.has(CONTAINER)) throw invalid(zip, CONTAINER, `has no ${CONTAINER}`);
  const files = descendants(readXmlPart(zip, CONTAINER, limits).root, CONTAINER_NS, "rootfile");
  const chosen =
    files.find((f) => attr(f, "media-type") === "application/oebps-package+xml") ??
    (files[0] as XmlElement | undefined);
  const path = chosen && attr(chosen, "full-path");
  const resolved = path === undefined ? undefined : resolveZipPath("", path);
  if (resolved === undefined) throw invalid(zip, CONTAINER, `part ${CONTAINER} names no package file`);
  if (!zip.has(resolved.name)) throw invalid(zip, resolved.name, `has no package file ${resolved.name}`);
  return resolved.name;
}

/** The parts META-INF/encryption.xml lists as encrypted (fonts are obfuscated so too; text is DRM). */
function encryptedParts(zip: ZipArchive, limits: FlowLimits): Set<string> {
  const found = new Set<string>();
  if (!zip.has(ENCRYPTION)) return found;
  for (const element of descendants(readXmlPart(zip, ENCRYPTION, limits).root, XMLENC, "CipherReference")) {
    const target = resolveZipPath("", attr(element, "URI") ?? "");
    if (target !== undefined) found.add(target.name);
  }
  return found;
}

export function readPackage(zip: ZipArchive, limits: FlowLimits): EpubPackage {
  const opf = rootfile(zip, limits);
  const root = readXmlPart(zip, opf, limits).root;
  const section = (local: string) => childElements(root, OPF, local)[0];
  const manifest = new Map<string, ManifestItem>();
  for (const item of childElements(section("manifest") ?? root, OPF, "item")) {
    const id = attr(item, "id");
    const target = resolveZipPath(opf, attr(item, "href") ?? "");
    if (id === undefined || target === undefined) continue;
    manifest.set(id, {
      id,
      name: target.name,
      mediaType: attr(item, "media-type") ?? "",
      properties: (attr(item, "properties") ?? "").split(/\s+/u).filter((p) => p !== ""),
    });
  }
  const spineElement = section("spine");
  if (spineElement === undefined) throw invalid(zip, opf, `part ${opf} has no spine`);
  const spine: ManifestItem[] = [];
  const seen = new Set<string>();
  for (const ref of childElements(spineElement, OPF, "itemref")) {
    const idref = attr(ref, "idref") ?? "";
    const item = manifest.get(idref);
    if (item === undefined) throw invalid(zip, opf, `spine names item ${idref}, which the manifest lacks`);
    if (!zip.has(item.name))
      throw invalid(zip, item.name, `spine names ${item.name}, which the archive lacks`);
    if (seen.has(item.name))
      throw invalid(zip, item.name, `spine names ${item.name} twice: its reading order loops`);
    seen.add(item.name);
    spine.push(item);
  }
  if (spine.length === 0) throw invalid(zip, opf, `spine in ${opf} names no document`);
  const encrypted = encryptedParts(zip, limits);
  const locked = spine.find((item) => encrypted.has(item.name));
  if (locked !== undefined)
    throw new CiteproofError(
      "CONTENT_NOT_SUPPORTED",
      `${zip.what} is encrypted (DRM): its part ${locked.name} cannot be read`,
      { part: locked.name },
    );
  const metadata = section("metadata");
  const dc = (local: string) => {
    const element = metadata === undefined ? undefined : childElements(metadata, DC, local)[0];
    const text = element === undefined ? "" : textContent(element).trim();
    return text === "" ? undefined : text;
  };
  const items = [...manifest.values()];
  const tocId = attr(spineElement, "toc");
  return {
    opf,
    title: dc("title"),
    language: dc("language"),
    manifest,
    spine,
    nav: items.find((i) => i.properties.includes("nav")),
    ncx:
      (tocId === undefined ? undefined : manifest.get(tocId)) ??
      items.find((i) => i.mediaType === "application/x-dtbncx+xml"),
  };
}
