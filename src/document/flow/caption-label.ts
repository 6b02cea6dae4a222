/**
 * The printed labels a caption or an equation carries: `Figure 3`, `Fig. 2a`, `Table 1`, `Table A.2`
 * at a caption's start, and an equation number such as `(1)`, `(2.3)` or `(A1)` set beside it.
 */
import type { FlowLabelKind } from "./model.js";

const CAPTION =
  /^(figure|fig\.|table|tab\.|plate|chart|exhibit|scheme|box)\s*((?:[A-Z]\.?)?\d+(?:[.-]\d+)*[a-z]?|[IVXL]+)(?![\p{L}\p{N}])/iu;
const EQUATION_NUMBER = /^\(\s*[A-Z]?\d+(?:[.-]\d+)*[a-z]?\s*\)$/u;

export function captionLabel(text: string): { kind: FlowLabelKind; label: string } | undefined {
  const match = CAPTION.exec(text.trim());
  if (!match) return undefined;
  const kind: FlowLabelKind = /^tab/iu.test(match[1]!) ? "table" : "figure";
  return { kind, label: `${match[1]} ${match[2]}` };
}

/**
 * The label of a paragraph that reads as a caption by its words alone: the label set off by a colon, a
 * full stop or a dash (`Table 3: Yields`), never running on into a sentence (`Table 3 shows ...`).
 */
export function setOffCaptionLabel(text: string): { kind: FlowLabelKind; label: string } | undefined {
  const clean = text.trim();
  const label = captionLabel(clean);
  if (label === undefined) return undefined;
  const match = CAPTION.exec(clean)!;
  return /^\s*(?:[.:\u2013\u2014-]|$)/u.test(clean.slice(match[0].length)) ? label : undefined;
}

/** The equation number when `text` is one and nothing else, else undefined. */
export function equationNumber(text: string): string | undefined {
  const clean = text.trim();
  return EQUATION_NUMBER.test(clean) ? clean.replace(/\s+/gu, "") : undefined;
}
