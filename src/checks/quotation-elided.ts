/**
 * A quotation shortened with ellipses: its parts, in order, on the named page (or running across the
 * break of the named range), at most MAX_GAP_UTF16 apart. A PASS always prints the words the
 * ellipses leave out, so a reader sees what they hide.
 */

import { type ElidedChain, findElided } from "../text/elided-match.js";
import { fold } from "../text/fold.js";
import type { FoldedPages } from "../text/folded-pages.js";
import { joinedView } from "../text/page-break.js";

/** Parts further apart than this (UTF-16 units of the page text) are not one passage. */
export const MAX_GAP_UTF16 = 1500;
/** The omitted words are printed up to this many characters. */
const MAX_OMITTED_CHARS = 200;

export interface ElidedPart {
  page: number;
  startUtf16: number;
  endUtf16: number;
  text: string;
}

export interface Omission {
  /** The words left out, whitespace runs as one space, cut to MAX_OMITTED_CHARS. */
  text: string;
  words: number;
  chars: number;
  cut: boolean;
}

export interface ElidedFinding {
  parts: ElidedPart[];
  omitted: Omission[];
  widestGap: number;
}

/** Where the parts stand in order within the pages named (`endPage` the page after `page`, or undefined). */
export function findElidedInRange(
  pages: FoldedPages,
  page: number,
  endPage: number | undefined,
  parts: readonly string[],
): ElidedFinding | undefined {
  const needles = parts.map((part) => fold(part, { trim: true }).text);
  let best: ElidedFinding | undefined;
  const consider = (finding: ElidedFinding | undefined) => {
    if (finding && (!best || finding.widestGap < best.widestGap)) best = finding;
  };
  for (const p of endPage === undefined ? [page] : [page, endPage]) {
    const text = pages.pages.get(p)?.text;
    for (const reading of ["joined", "kept"] as const) {
      const view = pages.view(p, reading);
      if (!text || !view) continue;
      const chain = findElided(view, needles);
      if (chain)
        consider(
          finding(chain, text, (start, end) => [
            { page: p, startUtf16: start, endUtf16: end, text: text.slice(start, end) },
          ]),
        );
    }
  }
  if (endPage !== undefined && (!best || best.widestGap > MAX_GAP_UTF16)) {
    for (const reading of ["joined", "kept"] as const) {
      const joined = joinedView(pages, page, reading);
      if (!joined) continue;
      const chain = findElided(joined.view, needles);
      if (chain)
        consider(finding(chain, joined.text, (start, end) => piecesAcross(joined, page, start, end)));
    }
  }
  return best;
}

/** A part of the joined text as pieces of the pages: one, or two when the part itself runs across the break. */
function piecesAcross(
  joined: { text: string; boundary: number },
  page: number,
  start: number,
  end: number,
): ElidedPart[] {
  const { text, boundary } = joined;
  const piece = (from: number, to: number, on: number, shift: number): ElidedPart => ({
    page: on,
    startUtf16: from - shift,
    endUtf16: to - shift,
    text: text.slice(from, to),
  });
  if (end <= boundary) return [piece(start, end, page, 0)];
  if (start >= boundary) return [piece(start, end, page + 1, boundary)];
  let aEnd = boundary - 1;
  while (aEnd > start && /\s/.test(text[aEnd - 1])) aEnd--;
  let bStart = boundary;
  while (bStart < end && /\s/.test(text[bStart])) bStart++;
  return [piece(start, aEnd, page, 0), piece(bStart, end, page + 1, boundary)];
}

function finding(
  chain: ElidedChain,
  text: string,
  pieces: (start: number, end: number) => ElidedPart[],
): ElidedFinding {
  const parts = chain.parts.flatMap((part) => pieces(part.startUtf16, part.endUtf16));
  const omitted = chain.parts
    .slice(1)
    .map((part, k) => omission(text.slice(chain.parts[k].endUtf16, part.startUtf16)));
  return { parts, omitted, widestGap: chain.widestGap };
}

/** The words between two parts of an elided quotation, as a result prints them. */
export function omission(between: string): Omission {
  const text = between.replace(/\s+/g, " ").trim();
  const words = text.split(" ").filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  const cut = text.length > MAX_OMITTED_CHARS;
  return { text: cut ? `${text.slice(0, MAX_OMITTED_CHARS)}…` : text, words, chars: text.length, cut };
}

/** `"…" (12 words)` for each omission, `"…" (57 words, 412 characters)` when cut. */
export function describeOmissions(omitted: readonly Omission[]): string {
  return omitted
    .map((o) => {
      const count = `${o.words} ${o.words === 1 ? "word" : "words"}${o.cut ? `, ${o.chars} characters` : ""}`;
      return `"${o.text}" (${count})`;
    })
    .join("; ");
}
