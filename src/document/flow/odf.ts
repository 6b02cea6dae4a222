/** OpenDocument's namespaces and lookups by local name within them. */
import type { XmlElement } from "./xml.js";

const BASE = "urn:oasis:names:tc:opendocument:xmlns:";
export const ODF = {
  office: `${BASE}office:1.0`,
  text: `${BASE}text:1.0`,
  table: `${BASE}table:1.0`,
  draw: `${BASE}drawing:1.0`,
  style: `${BASE}style:1.0`,
  math: "http://www.w3.org/1998/Math/MathML",
} as const;

export function isOdf(element: XmlElement, ns: keyof typeof ODF, local?: string): boolean {
  return element.ns === ODF[ns] && (local === undefined || element.local === local);
}

export function odfAttr(element: XmlElement, ns: keyof typeof ODF, local: string): string | undefined {
  return element.attrs.find((a) => a.ns === ODF[ns] && a.local === local)?.value;
}

/** A style name as written in the file (`Heading_20_1`) read as its display name (`Heading 1`). */
export function styleDisplayName(name: string): string {
  return name.replace(/_([0-9a-f]{2})_/giu, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}
