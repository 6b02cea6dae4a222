/**
 * A quotation shortened with an ellipsis (`...`, `…`, `[...]`, `[…]`) is checked as its parts, in
 * order. A run of three or more dots is one ellipsis.
 */
const ELLIPSIS = /\[\s*(?:\.{3,}|…)\s*\]|\.{3,}|…/gu;
const WORD = /[\p{L}\p{N}]/u;

/** The parts around the ellipses, trimmed, or undefined when the quotation has none. */
export function ellipsisParts(text: string): string[] | undefined {
  ELLIPSIS.lastIndex = 0;
  if (!ELLIPSIS.test(text)) return undefined;
  return text.split(ELLIPSIS).map((part) => part.trim());
}

/** Whether every part holds a word: an ellipsis with nothing (no letter or digit) on one side is not a quotation. */
export function everyPartHasWords(parts: readonly string[]): boolean {
  return parts.every((part) => WORD.test(part));
}
