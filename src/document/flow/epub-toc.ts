/**
 * An EPUB's table of contents and page list: from the EPUB 3 navigation document (`nav` of type `toc`
 * and `page-list`), or else from the EPUB 2 NCX (`navMap` and `pageList`). Each entry is resolved to
 * the zip entry and fragment it points at.
 */
import { readXmlPart } from "./container.js";
import type { EpubPackage } from "./epub-package.js";
import type { FlowLimits } from "./model.js";
import { attr, childElements, descendants, textContent, type XmlElement } from "./xml.js";
import type { ZipArchive } from "./zip.js";
import { resolveZipPath } from "./zip-path.js";

const XHTML = "http://www.w3.org/1999/xhtml";
const OPS = "http://www.idpf.org/2007/ops";
const NCX = "http://www.daisy.org/z3986/2005/ncx/";

export interface NavEntry {
  label: string;
  /** 1 for a top entry, 2 under it, and so on. */
  depth: number;
  name: string;
  fragment: string;
}

export interface EpubNavigation {
  toc: NavEntry[];
  pages: NavEntry[];
}

function words(element: XmlElement): string {
  return textContent(element).replace(/\s+/gu, " ").trim();
}

function fromNav(zip: ZipArchive, part: string, limits: FlowLimits): EpubNavigation {
  const root = readXmlPart(zip, part, limits, { htmlEntities: true }).root;
  const navs = descendants(root, XHTML, "nav");
  const ofType = (type: string) =>
    navs.find(
      (n) => (attr(n, "type", OPS) ?? "").split(/\s+/u).includes(type) || attr(n, "role") === `doc-${type}`,
    );
  const entries = (nav: XmlElement | undefined): NavEntry[] => {
    const out: NavEntry[] = [];
    const walk = (list: XmlElement, depth: number) => {
      for (const li of childElements(list, XHTML, "li")) {
        const link = childElements(li).find((c) => c.local === "a" || c.local === "span");
        const target = link && resolveZipPath(part, attr(link, "href") ?? "");
        if (link !== undefined && target !== undefined) out.push({ label: words(link), depth, ...target });
        for (const sub of childElements(li, XHTML, "ol")) walk(sub, depth + 1);
      }
    };
    for (const list of nav === undefined ? [] : childElements(nav, XHTML, "ol")) walk(list, 1);
    return out;
  };
  return { toc: entries(ofType("toc")), pages: entries(ofType("page-list")) };
}

function fromNcx(zip: ZipArchive, part: string, limits: FlowLimits): EpubNavigation {
  const root = readXmlPart(zip, part, limits).root;
  const entry = (point: XmlElement, depth: number): NavEntry | undefined => {
    const label = childElements(point, NCX, "navLabel")[0];
    const content = childElements(point, NCX, "content")[0];
    const target = content && resolveZipPath(part, attr(content, "src") ?? "");
    return label === undefined || target === undefined
      ? undefined
      : { label: words(label), depth, ...target };
  };
  const toc: NavEntry[] = [];
  const walk = (parent: XmlElement, depth: number) => {
    for (const point of childElements(parent, NCX, "navPoint")) {
      const found = entry(point, depth);
      if (found !== undefined) toc.push(found);
      walk(point, depth + 1);
    }
  };
  for (const map of childElements(root, NCX, "navMap")) walk(map, 1);
  const pages = childElements(root, NCX, "pageList").flatMap((list) =>
    childElements(list, NCX, "pageTarget").flatMap((t) => entry(t, 1) ?? []),
  );
  return { toc, pages };
}

export function readNavigation(zip: ZipArchive, pkg: EpubPackage, limits: FlowLimits): EpubNavigation {
  if (pkg.nav !== undefined && zip.has(pkg.nav.name)) {
    const nav = fromNav(zip, pkg.nav.name, limits);
    if (nav.toc.length > 0 || nav.pages.length > 0 || pkg.ncx === undefined) return nav;
  }
  if (pkg.ncx !== undefined && zip.has(pkg.ncx.name)) return fromNcx(zip, pkg.ncx.name, limits);
  return { toc: [], pages: [] };
}
