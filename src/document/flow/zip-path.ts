/**
 * A reference from one zip part to another (an EPUB href, an OOXML relationship target) resolved to
 * the entry name it means: relative to the referring part's folder, `/` from the archive's root,
 * percent-escapes decoded, the fragment set apart. A reference that climbs out of the archive, or that
 * names another scheme (`http:`, `file:`), resolves to nothing.
 */
export interface ZipTarget {
  name: string;
  /** The fragment after `#`, decoded, or "" when none. */
  fragment: string;
}

export function resolveZipPath(from: string, href: string): ZipTarget | undefined {
  if (/^[a-z][a-z0-9+.-]*:/iu.test(href)) return undefined;
  const hash = href.indexOf("#");
  const path = hash < 0 ? href : href.slice(0, hash);
  const fragment = hash < 0 ? "" : decoded(href.slice(hash + 1));
  if (fragment === undefined) return undefined;
  const base = path.startsWith("/") ? [] : from.split("/").slice(0, -1);
  const segments = [...base];
  for (const raw of path.split("/")) {
    const segment = decoded(raw);
    if (segment === undefined) return undefined;
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else segments.push(segment);
  }
  // A bare fragment ("#note3") refers to the part itself.
  const name = path === "" ? from : segments.join("/");
  return name === "" ? undefined : { name, fragment };
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
