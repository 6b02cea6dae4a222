/**
 * An ODT paragraph's printed text: text and spans with ODF's white space rules (`text:s` spaces, tabs,
 * line breaks), a sequence field's value kept and its end marked (a caption's label), note citations
 * left out with the notes set aside, annotations and ruby text dropped; frames' text boxes set aside
 * to be read as paragraphs of their own; an embedded formula object marks an equation.
 */
import { isOdf, ODF, odfAttr } from "./odf.js";
import { textContent, type XmlElement } from "./xml.js";

export interface OdtNote {
  kind: "footnote" | "endnote";
  body: XmlElement;
}

export interface OdtParagraphText {
  text: string;
  /** The text outside formulas. */
  plain: string;
  hasEquation: boolean;
  sequence?: { name: string; endsAt: number };
  /** A heading's or list item's printed number (`text:number`). */
  number?: string;
  notes: OdtNote[];
  /** Text boxes of frames anchored in the paragraph, read after it. */
  boxes: XmlElement[];
}

const DROPPED = new Set(["annotation", "annotation-end", "ruby-text", "note-citation", "bookmark-ref"]);

class OdtParagraph implements OdtParagraphText {
  text = "";
  plain = "";
  hasEquation = false;
  sequence: { name: string; endsAt: number } | undefined;
  number: string | undefined;
  readonly notes: OdtNote[] = [];
  readonly boxes: XmlElement[] = [];

  visit(node: XmlElement | string): void {
    if (typeof node === "string") this.add(node.replace(/[ \t\r\n]+/gu, " "));
    else if (node.ns === ODF.math) this.math(node);
    else if (DROPPED.has(node.local)) return;
    else if (isOdf(node, "text", "s"))
      this.add(" ".repeat(Math.min(1000, Number(odfAttr(node, "text", "c") ?? 1) || 1)));
    else if (isOdf(node, "text", "tab")) this.add("\t");
    else if (isOdf(node, "text", "line-break")) this.add("\n");
    else if (isOdf(node, "text", "number")) this.number = textContent(node).trim();
    else if (isOdf(node, "text", "note")) {
      const body = node.children.find(
        (c): c is XmlElement => typeof c !== "string" && c.local === "note-body",
      );
      const kind = odfAttr(node, "text", "note-class") === "endnote" ? "endnote" : "footnote";
      if (body !== undefined) this.notes.push({ kind, body });
    } else if (isOdf(node, "text", "sequence")) {
      this.children(node);
      this.sequence ??= { name: odfAttr(node, "text", "name") ?? "", endsAt: this.text.length };
    } else if (isOdf(node, "draw", "text-box")) this.boxes.push(node);
    else if (isOdf(node, "draw", "object") || isOdf(node, "draw", "object-ole")) {
      this.hasEquation = true;
      this.children(node);
    } else this.children(node);
  }

  private children(node: XmlElement): void {
    for (const child of node.children) this.visit(child);
  }

  private math(node: XmlElement): void {
    this.hasEquation = true;
    if (node.local === "annotation" || node.local === "annotation-xml") return;
    for (const child of node.children)
      if (typeof child === "string") this.text += child.trim();
      else this.math(child);
  }

  private add(text: string): void {
    this.text += text;
    this.plain += text;
  }
}

export function odtParagraphText(paragraph: XmlElement): OdtParagraphText {
  const reader = new OdtParagraph();
  for (const child of paragraph.children) reader.visit(child);
  return reader;
}
