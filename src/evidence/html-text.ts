/**
 * HTML to text for snapshots, with htmlparser2: the visible text in document order, block elements
 * on their own lines (paragraph-level blocks separated by a blank line), whitespace collapsed as a
 * browser would outside <pre>, table cells separated by a tab. Headings (h1-h6) are recorded with
 * the code point offset where their text starts; the title and citation metadata are kept.
 */
import { Parser } from "htmlparser2";
import { NOT_SHOWN } from "../document/flow/html.js";
import { CiteproofError } from "../errors.js";
import { codePointLength } from "../util/codepoints.js";
import { doiForm, pmcidForm, pmidForm } from "./paper-ids.js";
import type { PaperIds, SectionStart } from "./snapshot.js";

export interface HtmlText {
  text: string;
  title: string | null;
  headings: SectionStart[];
  /** Identifiers from citation_* meta tags, when the page declares them. */
  paper: PaperIds | null;
}

const SKIP = NOT_SHOWN;
const PARAGRAPH = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "blockquote",
  "pre",
  "table",
  "ul",
  "ol",
  "dl",
  "figure",
  "section",
  "article",
  "header",
  "footer",
  "main",
  "aside",
  "nav",
  "address",
  "form",
  "fieldset",
  "details",
  "hr",
]);
const LINE = new Set([
  "div",
  "li",
  "tr",
  "dt",
  "dd",
  "figcaption",
  "caption",
  "summary",
  "br",
  "thead",
  "tbody",
  "tfoot",
  "legend",
]);
const CELL = new Set(["td", "th"]);
const HEADING = /^h[1-6]$/;
const VOID = new Set([
  "br",
  "hr",
  "img",
  "input",
  "meta",
  "link",
  "area",
  "base",
  "col",
  "embed",
  "source",
  "track",
  "wbr",
]);

/**
 * The deepest nesting of elements read. The parser's cost grows with the square of the depth (200,000
 * unclosed <div>s took 30 s); real pages stay in the tens, browsers stop nesting at 512.
 */
export const MAX_HTML_DEPTH = 4096;

export function htmlToText(html: string): HtmlText {
  const parts: string[] = [];
  let length = 0;
  let pendingBreak = 0;
  let pendingSpace = false;
  let pendingTab = false;
  let atStart = true;
  let skipDepth = 0;
  let preDepth = 0;
  let depth = 0;
  let inTitle = false;
  let title = "";
  let titleDone = false;
  let heading: { start: number; part: number } | null = null;
  const headings: SectionStart[] = [];
  const paper: PaperIds = { pmid: null, doi: null, pmcid: null };

  const emit = (s: string) => {
    parts.push(s);
    length += codePointLength(s);
  };
  const flushSeparators = () => {
    if (!atStart) {
      if (pendingBreak > 0) emit("\n".repeat(pendingBreak));
      else if (pendingTab) emit("\t");
      else if (pendingSpace) emit(" ");
    }
    pendingBreak = 0;
    pendingSpace = false;
    pendingTab = false;
  };
  const markHeading = () => {
    if (heading && heading.start < 0) {
      heading.start = length;
      heading.part = parts.length;
    }
  };
  const blockBreak = (level: number) => {
    pendingBreak = Math.max(pendingBreak, level);
    pendingSpace = false;
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (++depth > MAX_HTML_DEPTH) {
          throw new CiteproofError(
            "CONTENT_NOT_SUPPORTED",
            `the HTML nests elements more than ${MAX_HTML_DEPTH} deep; it is not read`,
            { limit: MAX_HTML_DEPTH },
          );
        }
        if (name === "meta") {
          const key = (attribs.name ?? "").toLowerCase();
          const content = (attribs.content ?? "").trim();
          if (content) {
            // A value not in the identifier's form is not taken (the page's claim is not an identifier).
            if (key === "citation_doi" || key === "dc.identifier.doi") paper.doi ??= doiForm(content);
            if (key === "citation_pmid") paper.pmid ??= pmidForm(content);
            if (key === "citation_pmcid") paper.pmcid ??= pmcidForm(content);
          }
        }
        if (name === "title" && !titleDone) inTitle = true;
        if (SKIP.has(name)) {
          if (!VOID.has(name)) skipDepth++;
          return;
        }
        if (skipDepth > 0) return;
        if (name === "pre") preDepth++;
        if (PARAGRAPH.has(name)) blockBreak(2);
        else if (LINE.has(name)) blockBreak(1);
        else if (CELL.has(name)) {
          if (pendingBreak === 0) pendingTab = true;
        }
        if (name === "br") {
          // A <br> ends the line even inside an otherwise empty block.
          pendingBreak = Math.max(pendingBreak, 1);
          if (atStart) pendingBreak = 0;
        }
        if (HEADING.test(name)) heading = { start: -1, part: -1 };
      },
      ontext(data) {
        if (inTitle) {
          title += data;
          return;
        }
        if (skipDepth > 0) return;
        if (preDepth > 0) {
          if (data.length === 0) return;
          flushSeparators();
          markHeading();
          emit(data);
          atStart = false;
          return;
        }
        const pieces = data.split(/[ \t\n\f\r]+/);
        for (let i = 0; i < pieces.length; i++) {
          if (i > 0 && !atStart) pendingSpace = true;
          const word = pieces[i];
          if (word.length === 0) continue;
          flushSeparators();
          markHeading();
          emit(word);
          atStart = false;
        }
      },
      onclosetag(name) {
        depth--;
        if (name === "title" && inTitle) {
          inTitle = false;
          titleDone = true;
        }
        if (SKIP.has(name)) {
          if (!VOID.has(name) && skipDepth > 0) skipDepth--;
          return;
        }
        if (skipDepth > 0) return;
        if (name === "pre" && preDepth > 0) preDepth--;
        if (HEADING.test(name) && heading) {
          const text =
            heading.part >= 0 ? parts.slice(heading.part).join("").replace(/\s+/g, " ").trim() : "";
          if (heading.start >= 0 && text) headings.push({ start: heading.start, title: text });
          heading = null;
        }
        if (PARAGRAPH.has(name)) blockBreak(2);
        else if (LINE.has(name) && name !== "br") blockBreak(1);
        else if (CELL.has(name)) {
          if (pendingBreak === 0) pendingTab = true;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();

  const hasPaper = paper.pmid !== null || paper.doi !== null || paper.pmcid !== null;
  const cleanTitle = title.replace(/\s+/g, " ").trim();
  return { text: parts.join(""), title: cleanTitle || null, headings, paper: hasPaper ? paper : null };
}

/** Decodes HTML bytes: a BOM, then the HTTP charset, then a <meta> charset, then UTF-8. */
export function decodeHtml(bytes: Uint8Array, httpCharset: string | null): string {
  const bom = sniffBom(bytes);
  const head = Buffer.from(bytes.subarray(0, 2048)).toString("latin1");
  const meta = /<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)/i.exec(head)?.[1] ?? null;
  for (const label of [bom, httpCharset, meta, "utf-8"]) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(bytes);
    } catch {
      // An unknown label: try the next candidate.
    }
  }
  return new TextDecoder("utf-8").decode(bytes);
}

function sniffBom(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return null;
}
