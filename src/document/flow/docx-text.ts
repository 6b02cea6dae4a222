/**
 * A DOCX paragraph's printed text: runs' text, tabs and breaks; the results of fields, never their
 * codes (a `SEQ Figure` field's result is the figure's number, and marks the caption's label); deleted
 * and hidden runs left out; note references kept aside, their marks not printed into the text;
 * equations (OMML, or an OLE equation object) as their linear text.
 */
import { isMath, isW, wAttr, wChild } from "./ooxml.js";
import type { XmlElement, XmlNode } from "./xml.js";

export interface DocxNoteRef {
  kind: "footnote" | "endnote";
  id: string;
}

export interface DocxParagraphText {
  text: string;
  /** The text outside equation objects. */
  plain: string;
  hasEquation: boolean;
  /** The SEQ field that numbers the paragraph (`Figure`, `Table`, `Equation`) and where its result ends. */
  sequence?: { name: string; endsAt: number };
  notes: DocxNoteRef[];
  /** Text boxes (`w:txbxContent`) anchored in the paragraph, read after it as paragraphs of their own. */
  boxes: XmlElement[];
}

const SKIPPED = new Set([
  "pPr",
  "rPr",
  "del",
  "delText",
  "moveFrom",
  "drawing",
  "pict",
  "instrText",
  "delInstrText",
]);
const SEQ = /^\s*SEQ\s+(\S+)/iu;
/** Elements that print as a character of their own. */
const PRINTED: Record<string, string> = { tab: "\t", br: "\n", cr: "\n", noBreakHyphen: "-" };

class ParagraphReader {
  text = "";
  plain = "";
  hasEquation = false;
  sequence: { name: string; endsAt: number } | undefined;
  readonly notes: DocxNoteRef[] = [];
  readonly boxes: XmlElement[] = [];
  private readonly fields: { instr: string }[] = [];

  visit(node: XmlElement | string, inMath: boolean): void {
    if (typeof node === "string") return;
    if (isMath(node)) this.math(node);
    else if (!isW(node)) {
      // Word writes a drawing twice, as a modern choice and a legacy fallback: its text boxes once.
      if (node.local === "AlternateContent") this.textBoxes(node.children.find((c) => typeof c !== "string"));
      else this.children(node, inMath);
    } else if (node.local === "drawing" || node.local === "pict") this.textBoxes(node);
    else if (node.local === "instrText") {
      if (this.fields.length > 0) this.fields.at(-1)!.instr += textOf(node);
    } else if (!SKIPPED.has(node.local)) this.word(node, inMath);
  }

  private word(node: XmlElement, inMath: boolean): void {
    const printed = PRINTED[node.local];
    if (printed !== undefined) this.add(printed, inMath);
    else if (node.local === "t") this.add(textOf(node), inMath);
    else if (node.local === "r") {
      if (!hidden(node)) this.children(node, inMath);
    } else if (node.local === "object") this.hasEquation = true;
    else if (node.local === "footnoteReference" || node.local === "endnoteReference") {
      const id = wAttr(node, "id");
      if (id !== undefined)
        this.notes.push({ kind: node.local === "footnoteReference" ? "footnote" : "endnote", id });
    } else if (node.local === "fldChar") this.fieldChar(wAttr(node, "fldCharType"));
    else if (node.local === "fldSimple") {
      this.fields.push({ instr: wAttr(node, "instr") ?? "" });
      this.children(node, inMath);
      this.fieldChar("end");
    } else this.children(node, inMath);
  }

  private textBoxes(node: XmlNode | undefined): void {
    if (node !== undefined && typeof node !== "string") this.boxes.push(...wordBoxes(node));
  }

  private children(node: XmlElement, inMath: boolean): void {
    for (const child of node.children) this.visit(child, inMath);
  }

  private math(node: XmlElement): void {
    this.hasEquation = true;
    if (node.local === "t") this.add(textOf(node), true);
    else this.children(node, true);
  }

  private add(text: string, inMath: boolean): void {
    this.text += text;
    if (!inMath) this.plain += text;
  }

  private fieldChar(type: string | undefined): void {
    if (type === "begin") this.fields.push({ instr: "" });
    else if (type === "end") {
      const field = this.fields.pop();
      const seq = field && SEQ.exec(field.instr);
      if (seq && this.sequence === undefined) this.sequence = { name: seq[1]!, endsAt: this.text.length };
    }
  }
}

/** The `w:txbxContent` elements under a drawing, outermost only. */
function wordBoxes(node: XmlElement): XmlElement[] {
  const found: XmlElement[] = [];
  const pending: XmlNode[] = [...node.children].reverse();
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next === "string") continue;
    if (isW(next, "txbxContent")) found.push(next);
    else for (let i = next.children.length - 1; i >= 0; i--) pending.push(next.children[i]!);
  }
  return found;
}

function hidden(run: XmlElement): boolean {
  const rPr = wChild(run, "rPr");
  const vanish = rPr && wChild(rPr, "vanish");
  return vanish !== undefined && !["0", "false", "off"].includes(wAttr(vanish, "val") ?? "true");
}

function textOf(element: XmlElement): string {
  return element.children.filter((c): c is string => typeof c === "string").join("");
}

export function paragraphText(paragraph: XmlElement): DocxParagraphText {
  const reader = new ParagraphReader();
  for (const child of paragraph.children) reader.visit(child, false);
  const { text, plain, hasEquation, sequence, notes, boxes } = reader;
  return sequence === undefined
    ? { text, plain, hasEquation, notes, boxes }
    : { text, plain, hasEquation, sequence, notes, boxes };
}
