/**
 * The label forms the equation and figure checks know: numbers with optional dotted parts, an
 * optional capital prefix (appendix A.3, A6, supplementary S12) and, for equations, one lowercase
 * suffix letter (subequations 26a). The same grammar decides what a printed token may be and what a
 * caller may ask for, so every label the check can print can also be asked for.
 */

const EQUATION_LABEL = /^(?:[A-Z]{1,2}\.?)?\d{1,3}(?:\.\d{1,3}){0,3}[a-z]?$/;
const FIGURE_LABEL = /^(?:[A-Z]{1,2}\.?)?\d{1,3}(?:\.\d{1,3}){0,2}[a-z]?$/;

export function isEquationLabel(label: string): boolean {
  return EQUATION_LABEL.test(label);
}

export function isFigureLabel(label: string): boolean {
  return FIGURE_LABEL.test(label);
}

/** Why a label asked for is not in a known form, or undefined when it is. */
export function unsupportedEquationLabel(label: string): string | undefined {
  const trimmed = label.trim();
  if (trimmed.length === 0) return "the label is empty";
  if (/^\(.*\)$/.test(trimmed) || /[()]/.test(trimmed))
    return `the label ${JSON.stringify(label)} keeps its parentheses; give it without them, e.g. ${JSON.stringify(trimmed.replace(/[()]/g, ""))}`;
  if (/\d\s*[-–—]\s*\d|\bto\b/.test(trimmed))
    return `the label ${JSON.stringify(label)} is a range; give one label`;
  if (/[,;&]|\band\b/.test(trimmed)) return `the label ${JSON.stringify(label)} is a list; give one label`;
  if (trimmed !== label) return `the label ${JSON.stringify(label)} has spaces around it`;
  if (!isEquationLabel(trimmed))
    return `the label ${JSON.stringify(label)} is not a form the check knows (such as 7, 2.1, A.3, A6, S12 or 26a)`;
  return undefined;
}
