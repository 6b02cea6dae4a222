/** Boxes of groups of characters, and rounding for the record. */
import type { Box } from "../document/model.js";
import type { PageChars } from "./page-chars.js";

export interface Span {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Consecutive characters first..last (PageChars indices): a token's own characters. */
export interface CharRange {
  first: number;
  last: number;
}

export function spanOf(chars: PageChars, members: number[]): Span | undefined {
  if (members.length === 0) return undefined;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let j = 0; j < members.length; j++) {
    const k = members[j];
    x0 = Math.min(x0, chars.x0[k]);
    y0 = Math.min(y0, chars.y0[k]);
    x1 = Math.max(x1, chars.x1[k]);
    y1 = Math.max(y1, chars.y1[k]);
  }
  return { x0, y0, x1, y1 };
}

export function unionBox(span: Span, extra: Box[]): Box {
  let { x0, y0, x1, y1 } = span;
  for (const b of extra) {
    x0 = Math.min(x0, b.left);
    y0 = Math.min(y0, b.bottom);
    x1 = Math.max(x1, b.right);
    y1 = Math.max(y1, b.top);
  }
  return { left: x0, bottom: y0, right: x1, top: y1 };
}

export function roundBox(b: Box): Box {
  const r = (v: number) => Math.round(v * 100) / 100;
  return { left: r(b.left), bottom: r(b.bottom), right: r(b.right), top: r(b.top) };
}
