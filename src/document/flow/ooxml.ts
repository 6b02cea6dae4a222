/** WordprocessingML's namespaces (transitional and strict) and lookups by local name within them. */
import { childElements, type XmlElement } from "./xml.js";

const W = new Set([
  "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
  "http://purl.oclc.org/ooxml/wordprocessingml/main",
]);
const M = new Set([
  "http://schemas.openxmlformats.org/officeDocument/2006/math",
  "http://purl.oclc.org/ooxml/officeDocument/math",
]);

export function isW(element: XmlElement, local?: string): boolean {
  return W.has(element.ns) && (local === undefined || element.local === local);
}

export function isMath(element: XmlElement): boolean {
  return M.has(element.ns);
}

export function wChildren(element: XmlElement, local: string): XmlElement[] {
  return childElements(element).filter((c) => isW(c, local));
}

export function wChild(element: XmlElement, local: string): XmlElement | undefined {
  return childElements(element).find((c) => isW(c, local));
}

/** A `w:`-namespaced attribute (WordprocessingML qualifies its attributes). */
export function wAttr(element: XmlElement | undefined, local: string): string | undefined {
  if (element === undefined) return undefined;
  for (const a of element.attrs) if (a.local === local && (W.has(a.ns) || a.ns === "")) return a.value;
  return undefined;
}

/** `w:val` of the named child, e.g. a paragraph property's `<w:pStyle w:val="Heading1"/>`. */
export function wVal(element: XmlElement | undefined, local: string): string | undefined {
  return element === undefined ? undefined : wAttr(wChild(element, local), "val");
}
