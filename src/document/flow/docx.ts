/**
 * The DOCX reader: the main document's paragraphs in order, each with its role from its style chain
 * (Title, Heading 1-9 or an outline level, Caption, Quote, Bibliography, list paragraphs), headings'
 * list numbers computed as Word prints them, table cells, captions with their `SEQ` field or printed
 * label, equation numbers set after a tab beside an equation object, then the footnotes and endnotes
 * in the order they are referenced, each under the heading its reference stands under. Headers,
 * footers, comments, text boxes and drawings are left out.
 */
import { CiteproofError } from "../../errors.js";
import { FlowBuilder } from "./builder.js";
import { captionLabel, equationNumber, setOffCaptionLabel } from "./caption-label.js";
import { checkDeadline, readXmlPart, zipLimitsFor } from "./container.js";
import { DocxNumbering, paragraphNumbering } from "./docx-numbering.js";
import { DocxStyles } from "./docx-styles.js";
import { type DocxNoteRef, type DocxParagraphText, paragraphText } from "./docx-text.js";
import { labelEquationRow, type RowCell } from "./equation-rows.js";
import { withoutInvisible } from "./invisible.js";
import type { FlowDocument, FlowLabelKind, FlowLimits, FlowReader, SourceBytes } from "./model.js";
import { appendNotes, type PendingNote } from "./notes.js";
import { isW, wAttr, wChild, wChildren, wVal } from "./ooxml.js";
import { contentType, relationships } from "./ooxml-parts.js";
import type { XmlElement } from "./xml.js";
import { ZipArchive } from "./zip.js";

const MAIN = "word/document.xml";
const CONTENT = new Set(["p", "tbl", "sdt", "sdtContent", "customXml", "ins", "moveTo"]);

interface NoteRef extends DocxNoteRef {
  heading: number;
}

class DocxWalker {
  readonly builder: FlowBuilder;
  readonly notes: NoteRef[] = [];

  constructor(
    sha256: string,
    private readonly styles: DocxStyles,
    private readonly numbering: DocxNumbering,
    private readonly limits: FlowLimits,
    private readonly what: string,
  ) {
    this.builder = new FlowBuilder("docx", sha256);
  }

  blocks(container: XmlElement): void {
    // Bookmarks and the like between a paragraph and a table do not part them.
    const elements = container.children.filter(
      (c): c is XmlElement => typeof c !== "string" && isW(c) && CONTENT.has(c.local),
    );
    const tables = elements.map((e) => e.local === "tbl");
    for (const [i, child] of elements.entries()) {
      if (child.local === "p") this.paragraph(child, tables[i - 1] === true || tables[i + 1] === true);
      else if (child.local === "tbl") this.table(child);
      else this.blocks(child);
    }
  }

  /** `besideTable`: a table stands just before or after, so a `Table N` paragraph is its caption. */
  private paragraph(p: XmlElement, besideTable: boolean): void {
    const pPr = wChild(p, "pPr");
    const styleId = wVal(pPr, "pStyle");
    const outline = wVal(pPr, "outlineLvl");
    const read = paragraphText(p);
    const text = withoutInvisible(read.text);
    const role = this.styles.role(styleId, outline === undefined ? undefined : Number.parseInt(outline, 10));
    const list = paragraphNumbering(pPr) ?? this.styles.numbering(styleId);
    const number =
      list === undefined || list.numId === "0" ? undefined : this.numbering.next(list.numId, list.ilvl);
    const b = this.builder;
    if (role.role === "title") {
      b.title ??= text;
      b.block("title", text);
    } else if (role.role === "heading") b.heading(role.level, text, number);
    else if (
      role.role === "caption" ||
      read.sequence !== undefined ||
      (besideTable && setOffCaptionLabel(text)?.kind === "table")
    )
      this.caption(text, read);
    else if (role.role === "block-quote") b.block("block-quote", text);
    else if (role.role === "reference") b.block("reference", text, { region: "references" });
    else if (read.hasEquation) {
      const block = b.block("equation", text);
      const label = equationNumber(withoutInvisible(read.plain).split("\t").at(-1) ?? "");
      if (label !== undefined) b.label("equation", label, block);
    } else b.block(list === undefined || list.numId === "0" ? "paragraph" : "list-item", text);
    for (const note of read.notes) this.notes.push({ ...note, heading: b.currentHeading });
    for (const box of read.boxes) this.blocks(box);
  }

  private caption(text: string, read: DocxParagraphText): void {
    const block = this.builder.block("caption", text, { region: "caption" });
    if (read.sequence !== undefined) {
      const label = withoutInvisible(read.text.slice(0, read.sequence.endsAt)).trim();
      this.builder.label(sequenceKind(read.sequence.name), label, block);
    } else {
      const label = captionLabel(text);
      if (label !== undefined) this.builder.label(label.kind, label.label, block);
    }
  }

  private table(tbl: XmlElement): void {
    checkDeadline(this.limits, this.what);
    const nested: XmlElement[] = [];
    for (const tr of rows(tbl)) {
      const row: RowCell[] = [];
      for (const tc of cells(tr)) {
        const parts: string[] = [];
        let hasEquation = false;
        for (const child of tc.children) {
          if (typeof child === "string" || !isW(child)) continue;
          if (child.local === "p") {
            const read = paragraphText(child);
            parts.push(withoutInvisible(read.text));
            hasEquation ||= read.hasEquation;
            for (const note of read.notes) this.notes.push({ ...note, heading: this.builder.currentHeading });
          } else if (child.local === "tbl") nested.push(child);
        }
        const text = parts.join(" ");
        row.push({ text, hasEquation, block: this.builder.block("table-cell", text, { region: "table" }) });
      }
      labelEquationRow(this.builder, row);
    }
    for (const inner of nested) this.table(inner);
  }
}

function rows(tbl: XmlElement): XmlElement[] {
  return tbl.children.flatMap((c) =>
    typeof c === "string" || !isW(c) ? [] : c.local === "tr" ? [c] : c.local === "sdt" ? sdtRows(c) : [],
  );
}

function sdtRows(sdt: XmlElement): XmlElement[] {
  const content = wChild(sdt, "sdtContent");
  return content === undefined ? [] : wChildren(content, "tr");
}

function cells(tr: XmlElement): XmlElement[] {
  return tr.children.flatMap((c) => {
    if (typeof c === "string" || !isW(c)) return [];
    if (c.local === "tc") return [c];
    const content = c.local === "sdt" ? wChild(c, "sdtContent") : undefined;
    return content === undefined ? [] : wChildren(content, "tc");
  });
}

function sequenceKind(name: string): FlowLabelKind {
  if (/^tab/iu.test(name)) return "table";
  if (/^eq/iu.test(name)) return "equation";
  return "figure";
}

function notesOf(
  zip: ZipArchive,
  part: string | undefined,
  local: string,
  limits: FlowLimits,
): Map<string, XmlElement> {
  const found = new Map<string, XmlElement>();
  if (part === undefined || !zip.has(part)) return found;
  for (const note of wChildren(readXmlPart(zip, part, limits).root, local)) {
    const id = wAttr(note, "id");
    const type = wAttr(note, "type");
    if (id !== undefined && (type === undefined || type === "normal")) found.set(id, note);
  }
  return found;
}

function optionalPart(zip: ZipArchive, part: string | undefined, limits: FlowLimits): XmlElement | undefined {
  return part === undefined || !zip.has(part) ? undefined : readXmlPart(zip, part, limits).root;
}

export function readDocx(source: SourceBytes, limits: FlowLimits): FlowDocument {
  const zip = ZipArchive.open(source.bytes, source.origin, zipLimitsFor(limits));
  const main = relationships(zip, "", limits).get("officeDocument") ?? MAIN;
  const type = contentType(zip, main, limits);
  if (type === undefined || !/wordprocessingml|ms-word/u.test(type))
    throw new CiteproofError(
      "CONTENT_INVALID",
      `${source.origin} is not a Word document: its main part ${main} is ${type ?? "undeclared"}`,
      { part: main },
    );
  const document = readXmlPart(zip, main, limits).root;
  const body = isW(document, "document") ? wChild(document, "body") : undefined;
  if (body === undefined)
    throw new CiteproofError("CONTENT_INVALID", `${source.origin} part ${main} holds no Word document body`, {
      part: main,
    });
  const related = relationships(zip, main, limits);
  const walker = new DocxWalker(
    source.sha256,
    new DocxStyles(optionalPart(zip, related.get("styles"), limits)),
    new DocxNumbering(optionalPart(zip, related.get("numbering"), limits)),
    limits,
    source.origin,
  );
  walker.blocks(body);
  const notes = {
    footnote: notesOf(zip, related.get("footnotes"), "footnote", limits),
    endnote: notesOf(zip, related.get("endnotes"), "endnote", limits),
  };
  const pending: PendingNote<XmlElement>[] = [];
  for (const ref of walker.notes) {
    const note = notes[ref.kind].get(ref.id);
    if (note === undefined) continue;
    notes[ref.kind].delete(ref.id);
    pending.push({ kind: ref.kind, heading: ref.heading, note });
  }
  appendNotes(walker.builder, pending, (note) => wChildren(note, "p").map((p) => paragraphText(p).text));
  return walker.builder.finish();
}

export const docxReader: FlowReader = {
  kind: "docx",
  read: async (source, limits) => readDocx(source, limits),
};
