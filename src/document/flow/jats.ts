/**
 * The JATS/NLM article reader (PubMed Central `.nxml`): the article title, the abstracts (under a heading
 * `Abstract` unless they carry a title), the body's `sec`s as headings with their `label` as the printed
 * number, paragraphs, lists, quotes, figures and tables with their label and caption (the label a figure
 * or table anchor), table cells, display formulas with their label (an equation anchor), footnotes
 * (from `fn-group`, tables' feet or inline) under the heading of their first reference, the
 * acknowledgements and appendices, and the reference list as region `references`. Named character
 * references are decoded as the JATS DTD's ISO sets declare them; no DTD is ever read.
 */
import { CiteproofError } from "../../errors.js";
import { FlowBuilder } from "./builder.js";
import { captionLabel } from "./caption-label.js";
import { checkDeadline } from "./container.js";
import { withoutInvisible } from "./invisible.js";
import { descendant, formulaText, mathText, referenceText } from "./jats-text.js";
import type {
  FlowBlockKind,
  FlowDocument,
  FlowLabelKind,
  FlowLimits,
  FlowReader,
  SourceBytes,
} from "./model.js";
import { appendNotes, type PendingNote } from "./notes.js";
import { attr, childElements, parseXml, textContent, type XmlElement, type XmlNode } from "./xml.js";

const MATHML = "http://www.w3.org/1998/Math/MathML";
/** Elements that stand as blocks of their own even inside a paragraph. */
const BLOCK = new Set([
  "p",
  "sec",
  "fig",
  "fig-group",
  "table-wrap",
  "table-wrap-group",
  "disp-formula",
  "disp-formula-group",
  "list",
  "def-list",
  "disp-quote",
  "boxed-text",
  "statement",
  "verse-group",
  "speech",
  "fn",
  "ref-list",
  "preformat",
  "code",
  "graphic",
  "media",
  "supplementary-material",
  "array",
]);
/** Never printed as prose: metadata, note marks' targets, code. */
const SKIP = new Set([
  "object-id",
  "graphic",
  "media",
  "preformat",
  "code",
  "alt-text",
  "long-desc",
  "permissions",
]);

type Kind = Exclude<FlowBlockKind, "heading" | "title">;

class JatsWalker {
  readonly builder: FlowBuilder;
  readonly notes: PendingNote<XmlElement>[] = [];
  private readonly noted = new Set<string>();

  constructor(
    sha256: string,
    private readonly footnotes: Map<string, XmlElement>,
    private readonly limits: FlowLimits,
    private readonly what: string,
  ) {
    this.builder = new FlowBuilder("jats", sha256);
  }

  front(front: XmlElement): void {
    const meta = childElements(front).find((c) => c.local === "article-meta");
    if (meta === undefined) return;
    const title = descendant(meta, "article-title");
    if (title !== undefined) {
      const text = this.inline(title).text;
      this.builder.title ??= text;
      this.builder.block("title", text);
    }
    for (const abstract of childElements(meta).filter(
      (c) => c.local === "abstract" || c.local === "trans-abstract",
    )) {
      const own = childElements(abstract).find((c) => c.local === "title");
      this.builder.heading(1, own === undefined ? "Abstract" : this.inline(own).text);
      this.blocks(abstract, 2, "paragraph");
    }
  }

  /** The block children of `container`; `depth` is the level a `sec` here takes. */
  blocks(container: XmlElement, depth: number, kind: Kind, region?: "references" | "table"): void {
    checkDeadline(this.limits, this.what);
    let loose: XmlNode[] = [];
    const flush = () => {
      if (loose.length > 0)
        this.paragraph({ ns: "", local: "p", attrs: [], children: loose }, depth, kind, region);
      loose = [];
    };
    for (const child of container.children) {
      if (typeof child !== "string" && (BLOCK.has(child.local) || isHeadMatter(child))) {
        flush();
        this.block(child, depth, kind, region);
      } else loose.push(child);
    }
    flush();
  }

  private block(element: XmlElement, depth: number, kind: Kind, region?: "references" | "table"): void {
    const local = element.local;
    if (local === "p") this.paragraph(element, depth, kind, region);
    else if (local === "sec") this.section(element, depth);
    else if (local === "fig" || local === "table-wrap") this.float(element, depth);
    else if (local === "disp-formula") this.formula(element);
    else if (local === "list" || local === "def-list") this.blocks(element, depth, "list-item", region);
    else if (local === "disp-quote" || local === "verse-group")
      this.blocks(element, depth, "block-quote", region);
    else if (local === "fn") this.note(element);
    else if (local === "ref-list") this.references(element, depth);
    else if (!isHeadMatter(element) && !SKIP.has(local)) this.blocks(element, depth, kind, region);
  }

  section(sec: XmlElement, depth: number): void {
    const title = childElements(sec).find((c) => c.local === "title");
    const label = childElements(sec).find((c) => c.local === "label");
    const number = label === undefined ? undefined : textContent(label).trim().replace(/\.$/u, "");
    if (title !== undefined) this.builder.heading(depth, this.inline(title).text, number || undefined);
    this.blocks(sec, depth + 1, "paragraph");
  }

  references(list: XmlElement, depth: number): void {
    const title = childElements(list).find((c) => c.local === "title");
    if (title !== undefined) this.builder.heading(Math.max(1, depth), this.inline(title).text);
    for (const child of childElements(list)) {
      if (child.local === "ref")
        this.builder.block("reference", referenceText(child), { region: "references" });
      else if (child.local === "ref-list") this.references(child, depth + 1);
      else if (child.local === "p") this.paragraph(child, depth, "reference", "references");
    }
  }

  private paragraph(p: XmlElement, depth: number, kind: Kind, region?: "references" | "table"): void {
    const { text, nested } = this.inline(p);
    this.builder.block(kind, text, region === undefined ? {} : { region });
    for (const element of nested) this.block(element, depth, kind, region);
  }

  private float(element: XmlElement, depth: number): void {
    const labelElement = childElements(element).find((c) => c.local === "label");
    const caption = childElements(element).find((c) => c.local === "caption");
    const label = labelElement === undefined ? "" : this.inline(labelElement).text.trim();
    const words = caption === undefined ? "" : captionText(this, caption);
    const text = [label, words].filter((t) => t !== "").join(" ");
    const block = this.builder.block("caption", text, { region: "caption" });
    const kind: FlowLabelKind = element.local === "table-wrap" ? "table" : "figure";
    if (label !== "") this.builder.label(kind, label, block);
    else {
      const printed = captionLabel(text);
      if (printed !== undefined) this.builder.label(printed.kind, printed.label, block);
    }
    for (const child of childElements(element)) {
      if (child.local === "table") this.table(child);
      else if (child.local === "table-wrap-foot") this.blocks(child, depth, "paragraph", "table");
      else if (child.local === "alternatives")
        for (const t of childElements(child)) if (t.local === "table") this.table(t);
    }
  }

  private table(table: XmlElement): void {
    const pending = [table];
    while (pending.length > 0) {
      const node = pending.shift()!;
      for (const child of childElements(node)) {
        if (child.local === "td" || child.local === "th") {
          const { text, nested } = this.inline(child);
          this.builder.block("table-cell", text, { region: "table" });
          pending.push(...nested.filter((n) => n.local === "table"));
        } else pending.push(child);
      }
    }
  }

  private formula(formula: XmlElement): void {
    const label = childElements(formula).find((c) => c.local === "label");
    const printed = label === undefined ? "" : textContent(label).trim();
    const math = formulaText(formula);
    const block = this.builder.block("equation", [math, printed].filter((t) => t !== "").join(" "));
    if (printed !== "" && block >= 0) this.builder.label("equation", printed, block);
  }

  /** A footnote met where it stands (inline, in a table's foot): a note under the current heading. */
  private note(fn: XmlElement): void {
    const id = attr(fn, "id");
    if (id !== undefined && this.noted.has(id)) return;
    if (id !== undefined) this.noted.add(id);
    this.notes.push({ kind: "footnote", heading: this.builder.currentHeading, note: fn });
  }

  /** Inline text of `element`; block elements inside it are handed back to be read after it. */
  inline(element: XmlElement): { text: string; nested: XmlElement[] } {
    const nested: XmlElement[] = [];
    let text = "";
    const visit = (node: XmlNode): void => {
      if (typeof node === "string") text += node;
      else if (node.ns === MATHML) text += mathText(node);
      else if (node.local === "xref" && isNoteRef(node)) this.reference(node);
      else if (node.local === "fn") this.note(node);
      else if (node.local === "inline-formula") text += formulaText(node);
      else if (BLOCK.has(node.local) && node !== element) nested.push(node);
      else if (!SKIP.has(node.local) && node.local !== "tex-math")
        for (const child of node.children) visit(child);
    };
    for (const child of element.children) visit(child);
    return { text: withoutInvisible(text), nested };
  }

  /** A reference to a footnote: the note is placed under the heading of its first reference. */
  private reference(xref: XmlElement): void {
    for (const id of (attr(xref, "rid") ?? "").split(/\s+/u)) {
      const fn = this.footnotes.get(id);
      if (fn !== undefined) this.note(fn);
    }
  }

  /** The footnotes of the back matter no reference reached, under no heading. */
  unreferenced(): void {
    for (const [id, fn] of this.footnotes)
      if (!this.noted.has(id)) {
        this.noted.add(id);
        this.notes.push({ kind: "footnote", heading: -1, note: fn });
      }
  }
}

function isHeadMatter(element: XmlElement): boolean {
  return ["title", "label", "caption", "sec-meta", "kwd-group"].includes(element.local);
}

function isNoteRef(xref: XmlElement): boolean {
  const type = attr(xref, "ref-type");
  return type === "fn" || type === "table-fn";
}

function captionText(walker: JatsWalker, caption: XmlElement): string {
  return childElements(caption)
    .map((c) => walker.inline(c).text.trim())
    .filter((t) => t !== "")
    .join(" ");
}

/** The footnotes of the back matter's `fn-group`s, by id. */
function backFootnotes(back: XmlElement | undefined): Map<string, XmlElement> {
  const found = new Map<string, XmlElement>();
  for (const group of back === undefined ? [] : childElements(back).filter((c) => c.local === "fn-group"))
    for (const fn of childElements(group))
      if (fn.local === "fn") found.set(attr(fn, "id") ?? `unnamed-${found.size}`, fn);
  return found;
}

export function readJats(source: SourceBytes, limits: FlowLimits): FlowDocument {
  const { root } = parseXml(source.bytes, source.origin, { htmlEntities: true, maxDepth: limits.maxDepth });
  if (root.local !== "article")
    throw new CiteproofError(
      "CONTENT_INVALID",
      `${source.origin} is not a JATS article: its root is <${root.local}>`,
      {
        part: root.local,
      },
    );
  const part = (local: string) => childElements(root).find((c) => c.local === local);
  const back = part("back");
  const walker = new JatsWalker(source.sha256, backFootnotes(back), limits, source.origin);
  const language = attr(root, "lang", "http://www.w3.org/XML/1998/namespace");
  if (language !== undefined) walker.builder.language = language;
  const front = part("front");
  if (front !== undefined) walker.front(front);
  const body = part("body");
  if (body !== undefined) walker.blocks(body, 1, "paragraph");
  for (const child of back === undefined ? [] : childElements(back)) {
    if (child.local === "ref-list") walker.references(child, 1);
    else if (child.local === "ack" || child.local === "sec" || child.local === "app")
      walker.section(child, 1);
    else if (child.local === "app-group") walker.blocks(child, 1, "paragraph");
  }
  const floats = part("floats-group");
  if (floats !== undefined) walker.blocks(floats, 1, "paragraph");
  walker.unreferenced();
  appendNotes(walker.builder, walker.notes, (fn) =>
    childElements(fn)
      .filter((c) => c.local !== "label")
      .map((c) => walker.inline(c).text),
  );
  return walker.builder.finish();
}

export const jatsReader: FlowReader = {
  kind: "jats",
  read: async (source, limits) => readJats(source, limits),
};
