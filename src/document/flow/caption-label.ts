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

/** The equation number when `text` is one and nothing else, else undefined. */
export function equationNumber(text: string): string | undefined {
  const clean = text.trim();
  return EQUATION_NUMBER.test(clean) ? clean.replace(/\s+/gu, "") : undefined;
}
