/**
 * The HTML and XHTML reader (htmlparser2): headings, paragraphs, list items, block quotes, table
 * cells, figure and table captions (with their `Figure N` / `Table N` labels), footnotes and the
 * reference list kept in their regions. What a reader does not see is dropped: script, style,
 * template, navigation, form controls, hidden elements, footnote marks. When the page has a
 * `main` (or else an `article`), only what stands in it is read.
 */

import { Parser } from "htmlparser2";
import { CiteproofError } from "../../errors.js";
import { FlowBuilder, splitHeadingNumber } from "./builder.js";
import { declaredCharset, decodeText } from "./decode.js";
import type {
  FlowBlockKind,
  FlowDocument,
  FlowLimits,
  FlowReader,
  FlowRegion,
  SourceBytes,
} from "./model.js";
import { checkDeadline } from "./text-lines.js";

/** Elements whose content a reader never sees as text (shared with the evidence runs' HTML text). */
export const NOT_SHOWN: ReadonlySet<string> = new Set([
  "head",
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "math",
  "iframe",
  "object",
  "canvas",
]);

/** And what is no part of the document's own words: navigation and form controls. */
const SKIP = new Set([...NOT_SHOWN, "nav", "button", "select", "textarea", "input", "rt", "rp", "dialog"]);

/** Elements that start and end a block of text, and what a block directly in them is. */
const BLOCKS: Record<string, Exclude<FlowBlockKind, "heading" | "title">> = {
  p: "paragraph",
  div: "paragraph",
  section: "paragraph",
  article: "paragraph",
  main: "paragraph",
  aside: "paragraph",
  header: "paragraph",
  footer: "paragraph",
  address: "paragraph",
  pre: "paragraph",
  dl: "paragraph",
  dt: "paragraph",
  dd: "paragraph",
  ul: "list-item",
  ol: "list-item",
  li: "list-item",
  blockquote: "block-quote",
  figure: "paragraph",
  figcaption: "caption",
  caption: "caption",
  table: "table-cell",
  tr: "table-cell",
  td: "table-cell",
  th: "table-cell",
  hr: "paragraph",
  body: "paragraph",
};

const HEADING = /^h([1-6])$/u;
const LABELLED_CAPTION =
  /^(figure|fig\.|table|tab\.|plate|chart|exhibit|scheme|box)\s*((?:[A-Z]\.?)?\d+(?:[.-]\d+)*[a-z]?|[IVXL]+)(?![\p{L}\p{N}])/iu;
const NOTE_MARK = /^\s*(?:\[\s*\d{1,4}\s*\]|\d{1,4}|[a-z]|[*†‡§¶]+)\s*$/u;

interface Frame {
  name: string;
  region?: FlowRegion;
  block?: Exclude<FlowBlockKind, "heading" | "title">;
  heading?: number;
  /** The page's first heading with the class `title`: its title unless numbered. */
  titleBlock?: boolean;
  inQuote: boolean;
  inList: boolean;
  skip: boolean;
  /** 2 inside main, 1 inside an article, else 0. */
  scope: number;
  /** Whether the element starts and ends a block of text. */
  boundary: boolean;
  /** A link to a place in the page. */
  fragment: boolean;
  /** A link to a place in the page with a superscript: a note mark when its text is one. */
  mark: boolean;
  /** In a note: the id of the innermost element that has one (what the note's mark links to). */
  noteId?: string;
}

interface Item {
  heading?: number;
  /** The places in the page the item links to (its notes' ids, among others). */
  refs: string[];
  noteId?: string;
  kind: Exclude<FlowBlockKind, "heading" | "title">;
  region: FlowRegion;
  text: string;
  scope: number;
}

export interface HtmlReadOptions {
  limits: FlowLimits;
  /** Names the document in messages. */
  part: string;
  /** XHTML: self-closing tags and CDATA sections as XML has them. */
  xml: boolean;
}

/** Reads one HTML or XHTML document into the builder (an EPUB's reader calls it for each spine item). */
export function appendHtml(builder: FlowBuilder, html: string, options: HtmlReadOptions): void {
  const items: Item[] = [];
  const root: Frame = {
    name: "#root",
    boundary: false,
    inQuote: false,
    inList: false,
    skip: false,
    scope: 0,
    fragment: false,
    mark: false,
  };
  const stack: Frame[] = [root];
  let buffer: string[] = [];
  let refs: string[] = [];
  let capture: string[] | undefined;
  let title = "";
  let headingSeen = false;
  let inTitle = false;
  let events = 0;
  const top = () => stack[stack.length - 1];

  const flush = () => {
    const text = buffer.join("");
    buffer = [];
    if (text.trim() === "") return;
    const frame = top();
    items.push({
      kind: kindOf(frame),
      region: frame.region ?? "body",
      text,
      scope: frame.scope,
      refs,
      noteId: frame.noteId,
    });
    refs = [];
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (stack.length > options.limits.maxDepth)
          throw new CiteproofError(
            "CONTENT_NOT_SUPPORTED",
            `${options.part} nests elements more than ${options.limits.maxDepth} deep; it is not read`,
            { limit: options.limits.maxDepth, part: options.part },
          );
        const parent = top();
        if (name === "html") builder.language ??= attribs.lang ?? attribs["xml:lang"];
        if (name === "title" && title === "") inTitle = true;
        const equation = /\bmath display\b/u.test(attribs.class ?? "");
        const frame: Frame = {
          name,
          region: regionOf(name, attribs) ?? parent.region,
          block: equation ? "equation" : (BLOCKS[name] ?? parent.block),
          boundary: equation || BLOCKS[name] !== undefined,
          inQuote: parent.inQuote || name === "blockquote",
          inList: parent.inList || name === "li",
          skip: parent.skip || SKIP.has(name) || isHidden(attribs) || isNoteLink(attribs),
          scope: Math.max(
            parent.scope,
            name === "main" || attribs.role === "main" ? 2 : name === "article" ? 1 : 0,
          ),
          fragment: name === "a" && (attribs.href ?? "").startsWith("#"),
          mark:
            parent.mark || (name === "a" && (attribs.href ?? "").startsWith("#") && parent.name === "sup"),
        };
        if ((frame.region ?? "body") === "footnote") frame.noteId = attribs.id ?? parent.noteId;
        else if (frame.fragment) refs.push((attribs.href ?? "").slice(1));
        const level = headingLevel(name, attribs);
        if (!frame.skip && (level !== undefined || frame.boundary)) flush();
        if (level !== undefined && !frame.skip) {
          frame.heading = level;
          frame.titleBlock = !headingSeen && /(?:^|\s)title(?:\s|$)/u.test(attribs.class ?? "");
          headingSeen = true;
        }
        if (name === "sup" && parent.fragment && !parent.mark) {
          // The link's words so far stand; the superscript inside it is the mark.
          frame.mark = true;
        }
        if (frame.mark && !parent.mark) capture = [];
        stack.push(frame);
        if (name === "br" && !frame.skip) buffer.push(" ");
      },
      ontext(data) {
        checkDeadline(options.limits, ++events, options.part);
        if (inTitle) title += data;
        const frame = top();
        if (frame.skip) return;
        (capture ?? buffer).push(data);
      },
      onclosetag(name) {
        const frame = stack.pop() ?? root;
        if (stack.length === 0) stack.push(root);
        if (name === "title") inTitle = false;
        if (frame.mark && !top().mark && capture) {
          const text = capture.join("");
          capture = undefined;
          if (!NOTE_MARK.test(text)) buffer.push(text);
        }
        if (frame.skip) return;
        // A page's title set as its first heading (pandoc's title block) is its title, not a section;
        // DocBook marks every heading `title`, and a numbered one is a chapter or section.
        if (frame.titleBlock && splitHeadingNumber(buffer.join("").trim()).number === undefined) {
          title ||= buffer.join("");
          buffer = [];
        } else if (frame.heading !== undefined) {
          const text = buffer.join("");
          buffer = [];
          items.push({
            heading: frame.heading,
            kind: "paragraph",
            region: "body",
            text,
            scope: frame.scope,
            refs: [],
          });
        } else if (frame.boundary) {
          // What a block ended holds is its own; the text after it is its parent's.
          stack.push(frame);
          flush();
          stack.pop();
        }
      },
    },
    { decodeEntities: true, recognizeSelfClosing: options.xml, recognizeCDATA: options.xml },
  );
  parser.write(html);
  parser.end();
  flush();
  builder.title ??= title.trim() || undefined;
  const scope = Math.max(0, ...items.map((item) => item.scope));
  // A note stands under the heading its mark stands under, wherever the page sets the note.
  const noteHeadings = new Map<string, number>();
  for (const item of items) {
    if (item.scope < scope) continue;
    if (item.heading !== undefined) builder.heading(item.heading, item.text);
    else {
      const heading = item.noteId === undefined ? undefined : noteHeadings.get(item.noteId);
      const block = builder.block(item.kind, item.text, { region: item.region, heading });
      for (const ref of item.refs) if (!noteHeadings.has(ref)) noteHeadings.set(ref, builder.currentHeading);
      const label = item.kind === "caption" ? LABELLED_CAPTION.exec(item.text.trim()) : null;
      if (label && block >= 0)
        builder.label(
          /^tab/iu.test(label[1]) ? "table" : "figure",
          `${capitalised(label[1])} ${label[2]}`,
          block,
        );
      const tag = item.kind === "equation" ? /\\tag\{([^}]+)\}/u.exec(item.text) : null;
      if (tag && block >= 0) builder.label("equation", `(${tag[1].trim()})`, block);
    }
  }
}

function capitalised(word: string): string {
  return word[0].toUpperCase() + word.slice(1).toLowerCase();
}

/** A block's kind from where it stands: its region first, then a quotation or list around it. */
function kindOf(frame: Frame): Exclude<FlowBlockKind, "heading" | "title"> {
  if (frame.region === "footnote") return "note";
  if (frame.region === "references") return "reference";
  if (frame.region === "caption") return "caption";
  if (frame.region === "table") return "table-cell";
  if (frame.inQuote) return "block-quote";
  if (frame.inList) return "list-item";
  return frame.block ?? "paragraph";
}

function headingLevel(name: string, attribs: Record<string, string>): number | undefined {
  const h = HEADING.exec(name);
  if (h) return Number(h[1]);
  if (attribs.role === "heading") return Math.min(6, Math.max(1, Number(attribs["aria-level"]) || 2));
  return undefined;
}

const NOTE_ROLES = /^doc-(?:endnotes|footnote|endnote)$/u;
const NOTE_TYPES = /\b(?:footnotes?|endnotes?|rearnotes?|notes)\b/u;
const NOTE_CLASSES = /\b(?:footnotes?|endnotes?)\b/iu;
const REFERENCE_CLASSES = /\b(?:references|bibliography|ref-list|csl-bib-body)\b/iu;

function regionOf(name: string, attribs: Record<string, string>): FlowRegion | undefined {
  if (name === "figcaption" || name === "caption") return "caption";
  if (name === "table") return "table";
  const role = attribs.role ?? "";
  const type = attribs["epub:type"] ?? "";
  const cls = attribs.class ?? "";
  if (NOTE_ROLES.test(role) || NOTE_TYPES.test(type) || (name !== "a" && NOTE_CLASSES.test(cls)))
    return "footnote";
  if (role === "doc-bibliography" || /\bbibliography\b/u.test(type) || attribs.id === "refs")
    return "references";
  if (name !== "a" && REFERENCE_CLASSES.test(cls)) return "references";
  return undefined;
}

/** Hidden from every reader; aria-hidden is not, since it hides from screen readers alone what is shown. */
function isHidden(attribs: Record<string, string>): boolean {
  if (attribs.hidden !== undefined) return true;
  const style = (attribs.style ?? "").toLowerCase().replace(/\s+/gu, "");
  return style.includes("display:none") || style.includes("visibility:hidden");
}

/** A footnote's mark in the text, or its link back to it: not words of the text. */
function isNoteLink(attribs: Record<string, string>): boolean {
  const role = attribs.role ?? "";
  const type = attribs["epub:type"] ?? "";
  return (
    role === "doc-noteref" ||
    role === "doc-backlink" ||
    /\bnoteref\b/u.test(type) ||
    /\bfootnote-(?:ref|back|backref)\b|\breversefootnote\b/u.test(attribs.class ?? "")
  );
}

async function readHtml(
  source: SourceBytes,
  limits: FlowLimits,
  kind: "html" | "xhtml",
): Promise<FlowDocument> {
  const html = decodeText(source.bytes, source.origin, source.charset, declaredCharset(source.bytes));
  const builder = new FlowBuilder(kind, source.sha256);
  appendHtml(builder, html, { limits, part: source.origin, xml: kind === "xhtml" });
  return builder.finish();
}

export const htmlReader: FlowReader = {
  kind: "html",
  read: (source, limits) => readHtml(source, limits, "html"),
};
export const xhtmlReader: FlowReader = {
  kind: "xhtml",
  read: (source, limits) => readHtml(source, limits, "xhtml"),
};
