/**
 * Chapter headings for EPUB documents that set their headings as styled paragraphs (`<p class="...">`,
 * as LibreOffice and many converters write them): the table of contents names them. An entry whose
 * target element (or the document's first block, for an entry without a fragment) reads as the entry's
 * words becomes a heading of the entry's depth; the document is written back as XHTML for the HTML
 * reader. Nothing is promoted whose words differ from the entry's.
 */
import type { NavEntry } from "./epub-toc.js";
import { attr, textContent, type XmlElement, type XmlNode } from "./xml.js";

const XHTML = "http://www.w3.org/1999/xhtml";
const PREFIXES: Record<string, string> = {
  "http://www.idpf.org/2007/ops": "epub",
  "http://www.w3.org/XML/1998/namespace": "xml",
  "http://www.w3.org/1999/xlink": "xlink",
};
const BLOCKS = new Set(["p", "div", "span", "a"]);

function words(text: string): string {
  return text
    .replace(/[\s\u00a0]+/gu, " ")
    .trim()
    .toLowerCase();
}

function elements(root: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  const pending: XmlNode[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (typeof node === "string") continue;
    out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
  }
  return out;
}

/** The element of the entry's target whose words are the entry's, lifted to its paragraph. */
function target(all: XmlElement[], entry: NavEntry): XmlElement | undefined {
  const label = words(entry.label);
  const body = all.find((e) => e.local === "body");
  const start =
    entry.fragment === ""
      ? all.indexOf(body ?? all[0]!)
      : all.findIndex((e) => attr(e, "id") === entry.fragment);
  if (start < 0) return undefined;
  for (let i = start; i < all.length && i < start + 8; i++) {
    const candidate = all[i]!;
    const text = words(textContent(candidate));
    if (text === label && candidate.ns === XHTML && BLOCKS.has(candidate.local)) return candidate;
    if (text !== "" && !label.startsWith(text) && !text.startsWith(label)) return undefined;
  }
  return undefined;
}

/** Promotes the entries' targets to headings; returns whether any was. */
export function promoteHeadings(root: XmlElement, entries: NavEntry[]): boolean {
  const all = elements(root);
  let promoted = false;
  for (const entry of entries) {
    const found = target(all, entry);
    if (found === undefined) continue;
    found.local = `h${Math.min(6, Math.max(1, entry.depth))}`;
    promoted = true;
  }
  if (promoted) promoteSubheadings(all);
  return promoted;
}

const HEADING = /^h([1-6])$/u;
const NUMBERED = /^(\d+(?:\.\d+)*)\.?\s+(\S.*)$/u;

/**
 * Headings deeper than the table of contents goes (LibreOffice lists only chapters): a paragraph that
 * is one styled element whose words are a printed number extending the number of the heading above
 * it (`1.2` under `1`) and at most twelve words without a closing full stop becomes a heading one level
 * per added number deeper. A numbered paragraph under no numbered heading is left as it is.
 */
function promoteSubheadings(all: XmlElement[]): void {
  let above: { number: string; level: number } | undefined;
  for (const element of all) {
    if (element.ns !== XHTML) continue;
    const level = HEADING.exec(element.local)?.[1];
    const text = words(textContent(element));
    if (level !== undefined) {
      const number = NUMBERED.exec(text)?.[1];
      above = number === undefined ? undefined : { number, level: Number(level) };
      continue;
    }
    if (element.local !== "p" || above === undefined || !styledAlone(element)) continue;
    const numbered = NUMBERED.exec(text);
    if (!numbered || !numbered[1]!.startsWith(`${above.number}.`)) continue;
    const title = numbered[2]!;
    if (title.endsWith(".") || title.split(" ").length > 12) continue;
    const deeper = numbered[1]!.split(".").length - above.number.split(".").length;
    element.local = `h${Math.min(6, above.level + deeper)}`;
  }
}

/** A paragraph holding one element with a class and no words of its own. */
function styledAlone(p: XmlElement): boolean {
  const inner = p.children.filter((c) => typeof c !== "string" || c.trim() !== "");
  return inner.length === 1 && typeof inner[0] !== "string" && attr(inner[0]!, "class") !== undefined;
}

function escaped(text: string, quote: boolean): string {
  const out = text.replace(/&/gu, "&amp;").replace(/</gu, "&lt;").replace(/>/gu, "&gt;");
  return quote ? out.replace(/"/gu, "&quot;") : out;
}

/** The tree as XHTML text (elements by local name, known attribute prefixes kept). */
export function serialize(root: XmlElement): string {
  const parts: string[] = [];
  const pending: (XmlNode | { close: string })[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (typeof node === "string") parts.push(escaped(node, false));
    else if ("close" in node) parts.push(`</${node.close}>`);
    else {
      const attrs = node.attrs
        .map((a) => `${PREFIXES[a.ns] ? `${PREFIXES[a.ns]}:` : ""}${a.local}="${escaped(a.value, true)}"`)
        .join(" ");
      parts.push(`<${node.local}${attrs === "" ? "" : ` ${attrs}`}>`);
      pending.push({ close: node.local });
      for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
    }
  }
  return parts.join("");
}
