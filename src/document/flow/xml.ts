/**
 * XML parts as element trees, read safely: htmlparser2's tokenizer in XML mode with no entity decoding of
 * its own, the document type declaration (and any internal subset) cut out before parsing, and only the
 * predefined and numeric character references decoded (plus HTML's named ones for XHTML). An entity a
 * DTD declares is never expanded and an external one never fetched: `&lol9;` stays those five letters.
 * Nesting deeper than MAX_DEPTH and more than MAX_ELEMENTS elements are CONTENT_INVALID naming the part.
 * The part must be well-formed: an end tag that closes another element, an element left open, a second
 * root, text outside the root, a bare `<` or `&`, an attribute without a quoted value are CONTENT_INVALID
 * naming the part and the line, never read leniently (a lenient reading can move words between
 * elements, so a quotation would be checked against a text the producer never wrote).
 */
import { decodeHTML, decodeXML } from "entities";
import { Parser } from "htmlparser2";
import { CiteproofError } from "../../errors.js";
import { xmlText } from "./xml-bytes.js";

export interface XmlAttribute {
  ns: string;
  local: string;
  value: string;
}

export interface XmlElement {
  /** The namespace URI, "" when none. */
  ns: string;
  local: string;
  attrs: XmlAttribute[];
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

export interface XmlDocument {
  root: XmlElement;
  /** The document type declaration's text after `<!DOCTYPE`, internal subset left out; null when none. */
  doctype: string | null;
}

export const MAX_DEPTH = 1000;

/** A reference XML allows in text and attribute values: a name or a decimal or hex code point. */
const BARE_AMPERSAND = /&(?!(?:[A-Za-z_:][\w.:-]*|#[0-9]+|#x[0-9A-Fa-f]+);)/u;

/**
 * The parser, telling how each element closed: by its end tag, self-closing, or implied (another end tag
 * or the end of the part closed it, which htmlparser2 allows and XML does not). An end tag that matches no
 * open element is reported too (htmlparser2 drops it silently in XML mode).
 */
class StrictParser extends Parser {
  closing: "end" | "self" | "none" = "none";
  private closed = false;
  constructor(
    callbacks: ConstructorParameters<typeof Parser>[0],
    options: ConstructorParameters<typeof Parser>[1],
    private readonly unmatched: () => never,
  ) {
    super(callbacks, options);
  }
  noteClosed(): void {
    this.closed = true;
  }
  override onclosetag(start: number, endIndex: number): void {
    this.closing = "end";
    this.closed = false;
    super.onclosetag(start, endIndex);
    this.closing = "none";
    if (!this.closed) this.unmatched();
  }
  override onselfclosingtag(endIndex: number): void {
    this.closing = "self";
    super.onselfclosingtag(endIndex);
    this.closing = "none";
  }
}
export const MAX_ELEMENTS = 2_000_000;

const XML_NS = "http://www.w3.org/XML/1998/namespace";

/** Where the prolog's DOCTYPE declaration starts and ends (end exclusive), or null. */
function doctypeSpan(text: string): { start: number; end: number } | null {
  let at = 0;
  for (;;) {
    while (at < text.length && /\s/.test(text[at]!)) at++;
    if (text.startsWith("<?", at)) at = skipPast(text, at, "?>");
    else if (text.startsWith("<!--", at)) at = skipPast(text, at, "-->");
    else break;
  }
  if (!text.startsWith("<!DOCTYPE", at)) return null;
  const start = at;
  let quote: string | null = null;
  let depth = 0;
  for (at += 9; at < text.length; at++) {
    const c = text[at]!;
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (text.startsWith("<!--", at)) at = skipPast(text, at, "-->") - 1;
    else if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === ">" && depth <= 0) return { start, end: at + 1 };
  }
  return { start, end: text.length };
}

function skipPast(text: string, from: number, close: string): number {
  const end = text.indexOf(close, from);
  return end < 0 ? text.length : end + close.length;
}

function declaration(text: string, span: { start: number; end: number }): string {
  const inner = text.slice(span.start + 9, span.end - 1);
  return inner
    .replace(/\[[\s\S]*\]/, "")
    .trim()
    .replace(/\s+/g, " ");
}

function split(qname: string): { prefix: string; local: string } {
  const colon = qname.indexOf(":");
  return colon < 0
    ? { prefix: "", local: qname }
    : { prefix: qname.slice(0, colon), local: qname.slice(colon + 1) };
}

export interface XmlOptions {
  /** Decode HTML's named character references too (XHTML declares them in its DTD). */
  htmlEntities?: boolean;
  /** Deepest nesting accepted, at most MAX_DEPTH. */
  maxDepth?: number;
  /** The container the part is in, for messages (`book.epub`). */
  within?: string;
}

export function parseXml(bytes: Uint8Array | string, part: string, options: XmlOptions = {}): XmlDocument {
  const where = options.within === undefined ? part : `${options.within} part ${part}`;
  const text = typeof bytes === "string" ? bytes : xmlText(bytes, part, where);
  const span = doctypeSpan(text);
  const body = span === null ? text : text.slice(span.end);
  const decode = options.htmlEntities === true ? decodeHTML : decodeXML;
  const maxDepth = Math.min(options.maxDepth ?? MAX_DEPTH, MAX_DEPTH);
  const invalid = (why: string) => new CiteproofError("CONTENT_INVALID", `${where} ${why}`, { part });
  const malformed = (why: string): never => {
    const line = lineOf(text, (span === null ? 0 : span.end) + parser.startIndex);
    throw invalid(`is not well-formed XML: ${why} (line ${line})`);
  };

  const top: XmlElement = { ns: "", local: "", attrs: [], children: [] };
  const stack: XmlElement[] = [top];
  const scopes: Map<string, string>[] = [new Map([["xml", XML_NS]])];
  let elements = 0;
  let inCdata = false;
  let roots = 0;
  const names: string[] = [];
  const resolve = (prefix: string): string => {
    for (let i = scopes.length - 1; i >= 0; i--) {
      const uri = scopes[i]!.get(prefix);
      if (uri !== undefined) return uri;
    }
    return "";
  };
  const parser: StrictParser = new StrictParser(
    {
      onattribute(name, value, quote) {
        if (quote !== '"' && quote !== "'") malformed(`attribute ${name} has no quoted value`);
        if (value.includes("<")) malformed(`attribute ${name} holds a bare <`);
        if (BARE_AMPERSAND.test(value)) malformed(`attribute ${name} holds a bare &`);
      },
      onopentag(name, attributes) {
        if (stack.length === 1 && ++roots > 1) malformed(`a second root element <${name}>`);
        names.push(name);
        if (++elements > MAX_ELEMENTS) throw invalid(`has more than ${MAX_ELEMENTS} elements`);
        if (stack.length > maxDepth) throw invalid(`nests elements more than ${maxDepth} deep`);
        const scope = new Map<string, string>();
        for (const [key, value] of Object.entries(attributes)) {
          if (key === "xmlns") scope.set("", decode(value));
          else if (key.startsWith("xmlns:")) scope.set(key.slice(6), decode(value));
        }
        scopes.push(scope);
        const attrs: XmlAttribute[] = [];
        for (const [key, value] of Object.entries(attributes)) {
          if (key === "xmlns" || key.startsWith("xmlns:")) continue;
          const { prefix, local } = split(key);
          attrs.push({ ns: prefix === "" ? "" : resolve(prefix), local, value: decode(value) });
        }
        const { prefix, local } = split(name);
        const element: XmlElement = { ns: resolve(prefix), local, attrs, children: [] };
        stack.at(-1)!.children.push(element);
        stack.push(element);
      },
      onclosetag(name, isImplied) {
        parser.noteClosed();
        const open = names.pop();
        if (parser.closing === "none" || (parser.closing === "end" && isImplied) || open !== name)
          malformed(`<${open ?? name}> is not closed`);
        if (stack.length > 1) {
          stack.pop();
          scopes.pop();
        }
      },
      ontext(raw) {
        if (!inCdata) {
          if (stack.length === 1 && raw.trim() !== "") malformed("text outside the root element");
          if (raw.includes("<")) malformed("a bare < in text");
          if (BARE_AMPERSAND.test(raw)) malformed("a bare & in text");
        }
        const children = stack.at(-1)!.children;
        const value = inCdata ? raw : decode(raw);
        const last = children.length - 1;
        if (last >= 0 && typeof children[last] === "string") children[last] += value;
        else children.push(value);
      },
      oncdatastart() {
        inCdata = true;
      },
      oncdataend() {
        inCdata = false;
      },
    },
    { xmlMode: true, decodeEntities: false, recognizeCDATA: true, recognizeSelfClosing: true },
    () => malformed("an end tag closes no open element"),
  );
  parser.write(body);
  parser.end();
  const root = top.children.find((c): c is XmlElement => typeof c !== "string");
  if (root === undefined) throw invalid("holds no XML element");
  return { root, doctype: span === null ? null : declaration(text, span) };
}

/** The 1-based line of a UTF-16 offset. */
function lineOf(text: string, offset: number): number {
  let lines = 1;
  for (let at = text.indexOf("\n"); at >= 0 && at < offset; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}

export function attr(element: XmlElement, local: string, ns = ""): string | undefined {
  return element.attrs.find((a) => a.local === local && a.ns === ns)?.value;
}

export function childElements(element: XmlElement, ns?: string, local?: string): XmlElement[] {
  return element.children.filter(
    (c): c is XmlElement =>
      typeof c !== "string" &&
      (ns === undefined || c.ns === ns) &&
      (local === undefined || c.local === local),
  );
}

export function firstChild(element: XmlElement, ns: string, local: string): XmlElement | undefined {
  return childElements(element, ns, local)[0];
}

/** Every element under `element` (itself excluded) with this name, in document order, without recursion. */
export function descendants(element: XmlElement, ns: string, local: string): XmlElement[] {
  const found: XmlElement[] = [];
  const pending: XmlNode[] = [...element.children].reverse();
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (typeof node === "string") continue;
    if (node.ns === ns && node.local === local) found.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
  }
  return found;
}

/** The concatenated text under `element`, without recursion. */
export function textContent(element: XmlElement): string {
  let text = "";
  const pending: XmlNode[] = [element];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (typeof node === "string") text += node;
    else for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
  }
  return text;
}
