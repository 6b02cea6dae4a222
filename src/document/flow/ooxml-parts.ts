/**
 * How an OOXML package names its parts: the main document from the package relationships
 * (`_rels/.rels`), a part's related parts from its own relationships, and the content type
 * `[Content_Types].xml` gives a part.
 */
import { CiteproofError } from "../../errors.js";
import { readXmlPart } from "./container.js";
import type { FlowLimits } from "./model.js";
import { attr, childElements } from "./xml.js";
import type { ZipArchive } from "./zip.js";
import { resolveZipPath } from "./zip-path.js";

const CONTENT_TYPES = "[Content_Types].xml";

/** Relationship type (its last path segment, e.g. `officeDocument`, `styles`) to the part it names. */
export function relationships(zip: ZipArchive, part: string, limits: FlowLimits): Map<string, string> {
  const folder = part.split("/").slice(0, -1);
  const relsName = [...folder, "_rels", `${part.split("/").at(-1)}.rels`].join("/");
  const found = new Map<string, string>();
  if (!zip.has(relsName)) return found;
  for (const rel of childElements(readXmlPart(zip, relsName, limits).root)) {
    const type = attr(rel, "Type")?.split("/").at(-1);
    const target = attr(rel, "Target");
    if (type === undefined || target === undefined || attr(rel, "TargetMode") === "External") continue;
    const resolved = resolveZipPath(part === "" ? "" : part, target);
    if (resolved !== undefined && !found.has(type)) found.set(type, resolved.name);
  }
  return found;
}

/** The content type the package declares for `part`, or undefined when it declares none. */
export function contentType(zip: ZipArchive, part: string, limits: FlowLimits): string | undefined {
  if (!zip.has(CONTENT_TYPES))
    throw new CiteproofError(
      "CONTENT_INVALID",
      `${zip.what} has no ${CONTENT_TYPES}: it is not an OOXML package`,
      {
        part: CONTENT_TYPES,
      },
    );
  const types = childElements(readXmlPart(zip, CONTENT_TYPES, limits).root);
  const override = types.find((t) => t.local === "Override" && attr(t, "PartName") === `/${part}`);
  if (override !== undefined) return attr(override, "ContentType");
  const extension = part.split(".").at(-1)?.toLowerCase();
  const byDefault = types.find(
    (t) => t.local === "Default" && attr(t, "Extension")?.toLowerCase() === extension,
  );
  return byDefault === undefined ? undefined : attr(byDefault, "ContentType");
}
