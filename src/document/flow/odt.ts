/**
 * The ODT reader (content.xml, with the common styles of styles.xml): `text:h` as headings at their
 * outline level with their printed number, `text:p` with its role from its style chain (title, caption,
 * quotation, bibliography), list items, table cells, the text boxes of frames (where captions stand),
 * sequence fields as caption labels, a number after a tab beside a formula as the equation's label,
 * and footnotes and endnotes after the body, each under the heading its citation stands under.
 * Indexes (tables of contents and the like), annotations, tracked deletions, headers and footers are
 * left out.
 */
import { CiteproofError } from "../../errors.js";
import { FlowBuilder } from "./builder.js";
import { captionLabel, equationNumber } from "./caption-label.js";
import { checkDeadline, checkMimetype, readXmlPart, zipLimitsFor } from "./container.js";
import { labelEquationRow, type RowCell } from "./equation-rows.js";
import { withoutInvisible } from "./invisible.js";
import type { FlowDocument, FlowLabelKind, FlowLimits, FlowReader, SourceBytes } from "./model.js";
import { appendNotes, type PendingNote } from "./notes.js";
import { isOdf, odfAttr, styleDisplayName } from "./odf.js";
import { type OdtParagraphText, odtParagraphText } from "./odt-text.js";
import { type ParagraphRole, roleOfStyleNames } from "./style-roles.js";
import { childElements, type XmlElement } from "./xml.js";
import { ZipArchive } from "./zip.js";

const MEDIA_TYPE = "application/vnd.oasis.opendocument.text";
const INDEXES = new Set([
  "table-of-content",
  "illustration-index",
  "alphabetical-index",
  "table-index",
  "object-index",
  "user-index",
  "tracked-changes",
  "sequence-decls",
  "variable-decls",
  "user-field-decls",
]);

class OdtStyles {
  private readonly parents = new Map<string, { display: string; parent?: string }>();

  add(root: XmlElement | undefined): void {
    if (root === undefined) return;
    for (const group of childElements(root))
      for (const style of childElements(group)) {
        const name = isOdf(style, "style", "style") ? odfAttr(style, "style", "name") : undefined;
        if (name === undefined) continue;
        const display = odfAttr(style, "style", "display-name") ?? styleDisplayName(name);
        this.parents.set(name, { display, parent: odfAttr(style, "style", "parent-style-name") });
      }
  }

  role(name: string | undefined): ParagraphRole {
    const names: string[] = [];
    const seen = new Set<string>();
    for (let at = name; at !== undefined && !seen.has(at); at = this.parents.get(at)?.parent) {
      seen.add(at);
      names.push(this.parents.get(at)?.display ?? styleDisplayName(at));
    }
    return roleOfStyleNames(names) ?? { role: "paragraph" };
  }
}

class OdtWalker {
  readonly builder: FlowBuilder;
  readonly notes: PendingNote<XmlElement>[] = [];

  constructor(
    sha256: string,
    private readonly styles: OdtStyles,
    private readonly limits: FlowLimits,
    private readonly what: string,
  ) {
    this.builder = new FlowBuilder("odt", sha256);
  }

  /** `kind` is what a plain paragraph here is: a list item inside a list, a reference in a bibliography. */
  blocks(container: XmlElement, kind: "paragraph" | "list-item" | "reference" = "paragraph"): void {
    for (const child of childElements(container)) {
      if (isOdf(child, "text", "h")) this.heading(child);
      else if (isOdf(child, "text", "p")) this.paragraph(child, kind);
      else if (isOdf(child, "text", "list")) this.list(child);
      else if (isOdf(child, "table", "table")) this.table(child);
      else if (isOdf(child, "text", "bibliography") || referenceSection(child))
        this.blocks(child, "reference");
      else if (isOdf(child, "text") && INDEXES.has(child.local)) continue;
      else if (isOdf(child, "draw", "frame")) this.boxes(odtParagraphText(child).boxes);
      else if (!isOdf(child, "text", "index-title") && !isOdf(child, "office", "forms"))
        this.blocks(child, kind);
    }
  }

  private heading(h: XmlElement): void {
    const read = this.read(h);
    const level = Number.parseInt(odfAttr(h, "text", "outline-level") ?? "1", 10) || 1;
    const number = read.number?.replace(/[.)]$/u, "");
    this.builder.heading(level, withoutInvisible(read.text), number || undefined);
    this.after(read);
  }

  private paragraph(p: XmlElement, kind: "paragraph" | "list-item" | "reference"): void {
    const read = this.read(p);
    const text = withoutInvisible(read.text);
    const role = this.styles.role(odfAttr(p, "text", "style-name"));
    const b = this.builder;
    if (role.role === "title") {
      b.title ??= text;
      b.block("title", text);
    } else if (role.role === "heading") b.heading(role.level, text);
    else if (role.role === "caption" || read.sequence !== undefined) this.caption(text, read);
    else if (role.role === "block-quote") b.block("block-quote", text);
    else if (role.role === "reference" || kind === "reference")
      b.block("reference", text, { region: "references" });
    else if (read.hasEquation) {
      const block = b.block("equation", text);
      const label = equationNumber(withoutInvisible(read.plain).split("\t").at(-1) ?? "");
      if (label !== undefined) b.label("equation", label, block);
    } else b.block(kind, text);
    this.after(read);
  }

  private caption(text: string, read: OdtParagraphText): void {
    const block = this.builder.block("caption", text, { region: "caption" });
    const label =
      read.sequence === undefined
        ? captionLabel(text)
        : {
            kind: sequenceKind(read.sequence.name),
            label: withoutInvisible(read.text.slice(0, read.sequence.endsAt)).trim(),
          };
    if (label !== undefined) this.builder.label(label.kind, label.label, block);
  }

  private read(element: XmlElement): OdtParagraphText {
    return odtParagraphText(element);
  }

  private after(read: OdtParagraphText): void {
    for (const note of read.notes)
      this.notes.push({ kind: note.kind, note: note.body, heading: this.builder.currentHeading });
    this.boxes(read.boxes);
  }

  private boxes(boxes: XmlElement[]): void {
    for (const box of boxes) this.blocks(box);
  }

  private list(list: XmlElement): void {
    for (const item of childElements(list))
      if (isOdf(item, "text", "list-item") || isOdf(item, "text", "list-header"))
        this.blocks(item, "list-item");
  }

  private table(table: XmlElement): void {
    checkDeadline(this.limits, this.what);
    const nested: XmlElement[] = [];
    const rows = (group: XmlElement): XmlElement[] =>
      childElements(group).flatMap((c) =>
        isOdf(c, "table", "table-row")
          ? [c]
          : isOdf(c, "table") && /^table-(?:header-)?rows?(?:-group)?$/u.test(c.local)
            ? rows(c)
            : [],
      );
    for (const row of rows(table)) {
      const cells: RowCell[] = [];
      for (const cell of childElements(row)) {
        if (!isOdf(cell, "table", "table-cell")) continue;
        const parts: string[] = [];
        let hasEquation = false;
        for (const child of childElements(cell)) {
          if (isOdf(child, "table", "table")) nested.push(child);
          else {
            const read = this.read(child);
            parts.push(withoutInvisible(read.text));
            hasEquation ||= read.hasEquation;
            for (const note of read.notes)
              this.notes.push({ kind: note.kind, note: note.body, heading: this.builder.currentHeading });
          }
        }
        const text = parts.join(" ");
        cells.push({ text, hasEquation, block: this.builder.block("table-cell", text, { region: "table" }) });
      }
      labelEquationRow(this.builder, cells);
    }
    for (const inner of nested) this.table(inner);
  }
}

/** A section named as a reference list (`refs`, as pandoc writes it, `References`, `Bibliography`). */
function referenceSection(element: XmlElement): boolean {
  return (
    isOdf(element, "text", "section") &&
    /^(?:refs|references|bibliography)$/iu.test(odfAttr(element, "text", "name") ?? "")
  );
}

function sequenceKind(name: string): FlowLabelKind {
  if (/^tab/iu.test(name)) return "table";
  if (/^(?:eq|text)/iu.test(name)) return "equation";
  return "figure";
}

export function readOdt(source: SourceBytes, limits: FlowLimits): FlowDocument {
  const zip = ZipArchive.open(source.bytes, source.origin, zipLimitsFor(limits));
  checkMimetype(zip, MEDIA_TYPE, "an ODF text");
  const content = readXmlPart(zip, "content.xml", limits).root;
  const body = childElements(content).find((c) => isOdf(c, "office", "body"));
  const text = body && childElements(body).find((c) => isOdf(c, "office", "text"));
  if (!isOdf(content, "office", "document-content") || text === undefined)
    throw new CiteproofError("CONTENT_INVALID", `${source.origin} part content.xml holds no ODF text body`, {
      part: "content.xml",
    });
  const styles = new OdtStyles();
  if (zip.has("styles.xml")) styles.add(readXmlPart(zip, "styles.xml", limits).root);
  styles.add(content);
  const walker = new OdtWalker(source.sha256, styles, limits, source.origin);
  walker.blocks(text);
  appendNotes(walker.builder, walker.notes, (body) =>
    childElements(body).map((p) => odtParagraphText(p).text),
  );
  return walker.builder.finish();
}

export const odtReader: FlowReader = {
  kind: "odt",
  read: async (source, limits) => readOdt(source, limits),
};
