/**
 * A DOCX's paragraph styles (word/styles.xml): each style's name, the style it is based on, its outline
 * level and its list numbering, so a paragraph's role follows from its style chain whatever the style
 * ids are called (Word writes localised ids such as `berschrift1` for the style named `heading 1`).
 */
import { wAttr, wChild, wChildren, wVal } from "./ooxml.js";
import { type ParagraphRole, roleOfStyleNames } from "./style-roles.js";
import type { XmlElement } from "./xml.js";

interface Style {
  name: string;
  basedOn?: string;
  outlineLevel?: number;
  numId?: string;
  ilvl?: number;
}

export class DocxStyles {
  private readonly styles = new Map<string, Style>();
  private defaultParagraph: string | undefined;

  constructor(root: XmlElement | undefined) {
    if (root === undefined) return;
    for (const style of wChildren(root, "style")) {
      if (wAttr(style, "type") !== "paragraph") continue;
      const id = wAttr(style, "styleId");
      if (id === undefined) continue;
      const pPr = wChild(style, "pPr");
      const numPr = pPr && wChild(pPr, "numPr");
      this.styles.set(id, {
        name: (wVal(style, "name") ?? id).toLowerCase(),
        basedOn: wVal(style, "basedOn"),
        outlineLevel: numberOf(wVal(pPr, "outlineLvl")),
        numId: wVal(numPr, "numId"),
        ilvl: numberOf(wVal(numPr, "ilvl")),
      });
      if (wAttr(style, "default") === "1" || wAttr(style, "default") === "true") this.defaultParagraph = id;
    }
  }

  /** The chain from the style itself up through what it is based on, loops cut. */
  private chain(id: string | undefined): Style[] {
    const seen = new Set<string>();
    const out: Style[] = [];
    for (let at = id ?? this.defaultParagraph; at !== undefined && !seen.has(at); ) {
      seen.add(at);
      const style = this.styles.get(at);
      if (style === undefined) break;
      out.push(style);
      at = style.basedOn;
    }
    return out;
  }

  role(styleId: string | undefined, outlineLevel: number | undefined): ParagraphRole {
    const chain = this.chain(styleId);
    const names = chain.length > 0 ? chain.map((s) => s.name) : [(styleId ?? "").toLowerCase()];
    if (names.includes("title")) return { role: "title" };
    const level = outlineLevel ?? chain.find((s) => s.outlineLevel !== undefined)?.outlineLevel;
    if (level !== undefined && level >= 0 && level <= 8) return { role: "heading", level: level + 1 };
    return roleOfStyleNames(names) ?? { role: "paragraph" };
  }

  /** The list numbering a style gives its paragraphs, when it gives one. */
  numbering(styleId: string | undefined): { numId: string; ilvl: number } | undefined {
    for (const style of this.chain(styleId))
      if (style.numId !== undefined) return { numId: style.numId, ilvl: style.ilvl ?? 0 };
    return undefined;
  }
}

function numberOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? n : undefined;
}
