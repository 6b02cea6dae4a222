/**
 * A fetched source's kind from its content and the media type its server declared together. The
 * content decides the kind (detect.ts); the media type settles what content alone cannot (Markdown
 * served as `text/markdown` but written without Markdown's block syntax; markup served as `text/html`
 * that carries none of the hints), and a declaration the content contradicts (a page served as
 * `application/pdf`, a login page where a DOCX was asked for) is CONTENT_INVALID naming both, never
 * read as the kind the server did not send.
 */

import { CiteproofError } from "../../errors.js";
import type { SourceKind } from "./model.js";

/** The kinds each media type admits; the first is the kind a plain text body is read as. */
const DECLARED: Record<string, readonly SourceKind[]> = {
  "application/pdf": ["pdf"],
  "application/x-pdf": ["pdf"],
  "text/html": ["html", "xhtml"],
  "application/xhtml+xml": ["xhtml", "html"],
  "application/epub+zip": ["epub"],
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ["docx"],
  "application/vnd.oasis.opendocument.text": ["odt"],
  "application/jats+xml": ["jats"],
  "text/markdown": ["markdown", "text"],
  "text/x-markdown": ["markdown", "text"],
  // Markdown files are often served as text/plain (raw file hosts); the content decides between the two.
  "text/plain": ["text", "markdown"],
  "application/xml": ["jats", "xhtml"],
  "text/xml": ["jats", "xhtml"],
};

/** Kinds read from text without markup: a declared markup or Markdown type names how to read them. */
const PLAIN: readonly SourceKind[] = ["text", "markdown"];

/**
 * The kind of a fetched body: `detected` (from its content) unless the declared `mediaType` names how
 * to read a plain text body; a media type this table does not know (or none, or
 * `application/octet-stream`) leaves the content to decide.
 */
export function fetchedKind(detected: SourceKind, mediaType: string | null, origin: string): SourceKind {
  const admitted = mediaType === null ? undefined : DECLARED[mediaType];
  if (admitted === undefined || admitted.includes(detected)) {
    // text/markdown: a body without Markdown's syntax is still read as Markdown, as declared.
    if (admitted !== undefined && admitted[0] === "markdown" && detected === "text") return "markdown";
    return detected;
  }
  if (PLAIN.includes(detected) && (admitted[0] === "html" || admitted[0] === "xhtml")) return admitted[0];
  throw new CiteproofError(
    "CONTENT_INVALID",
    `${origin} was served as ${mediaType}, but its content is ${detected === "text" ? "plain text" : detected}: not read as either`,
    { part: "body" },
  );
}
