/**
 * The printed text of JATS pieces that are not prose: MathML (annotations left out), formulas, and
 * references, whose structured parts are joined by spaces.
 */
import { withoutInvisible } from "./invisible.js";
import { childElements, textContent, type XmlElement, type XmlNode } from "./xml.js";

/** The printed text of MathML, its annotations (TeX sources) left out. */
export function mathText(math: XmlElement): string {
  let text = "";
  const pending: XmlNode[] = [math];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (typeof node === "string") text += node.trim();
    else if (node.local !== "annotation" && node.local !== "annotation-xml")
      for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
  }
  return text;
}

/** A formula's MathML text, or its TeX when it has no MathML. */
export function formulaText(formula: XmlElement): string {
  const math = descendant(formula, "math");
  if (math !== undefined) return mathText(math);
  const tex = descendant(formula, "tex-math");
  return tex === undefined ? "" : textContent(tex).trim();
}

/** A reference's label and citation; an element-citation's parts joined by spaces. */
export function referenceText(ref: XmlElement): string {
  const parts: string[] = [];
  for (const child of childElements(ref)) {
    if (child.local === "label") parts.push(textContent(child).trim());
    else if (child.local === "mixed-citation") parts.push(textContent(child));
    else if (child.local === "element-citation" || child.local === "nlm-citation")
      parts.push(leafText(child));
    else if (child.local === "citation-alternatives") parts.push(referenceText(child));
  }
  return withoutInvisible(parts.join(" "));
}

function leafText(element: XmlElement): string {
  const parts: string[] = [];
  const pending: XmlNode[] = [element];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (typeof node === "string") parts.push(node.trim());
    else for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
  }
  return parts.filter((p) => p !== "").join(" ");
}

export function descendant(element: XmlElement, local: string): XmlElement | undefined {
  const pending: XmlNode[] = [...element.children].reverse();
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (typeof node === "string") continue;
    if (node.local === local) return node;
    for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
  }
  return undefined;
}
