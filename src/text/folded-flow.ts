/**
 * A flow document folded once for matching, with the ways from a match back to its structure: the
 * block it starts in, the heading chain above that block, and a heading's section as a range of
 * the text. The folded view maps to UTF-16 offsets of the document's text; the structure counts
 * code points, and `cp` converts between them.
 */

import type { FlowDocument, FlowHeading } from "../document/flow/model.js";
import { CodePointIndex } from "../util/codepoints.js";
import { type FoldedText, fold, skeletonOf } from "./fold.js";
import { onWordBoundaries } from "./folded-pages.js";

export interface FlowMatch {
  startUtf16: number;
  endUtf16: number;
}

export class FoldedFlow {
  readonly cp: CodePointIndex;
  private folded: FoldedText | undefined;
  private skeletonFolded: FoldedText | undefined;
  private readonly blockStartsUtf16: Int32Array;

  constructor(readonly doc: FlowDocument) {
    this.cp = new CodePointIndex(doc.text);
    this.blockStartsUtf16 = Int32Array.from(doc.blocks, (b) => this.cp.toUtf16(b.startCp));
  }

  get view(): FoldedText {
    this.folded ??= fold(this.doc.text);
    return this.folded;
  }

  get skeleton(): FoldedText {
    this.skeletonFolded ??= skeletonOf(this.view);
    return this.skeletonFolded;
  }

  /** Occurrences of a folded needle on word boundaries, in text order, at most `limit`. */
  find(needle: string, limit = 64): FlowMatch[] {
    const view = this.view;
    const out: FlowMatch[] = [];
    if (needle.length === 0) return out;
    for (
      let at = view.text.indexOf(needle);
      at >= 0 && out.length < limit;
      at = view.text.indexOf(needle, at + 1)
    ) {
      if (!onWordBoundaries(view.text, at, needle)) continue;
      out.push({ startUtf16: view.startUtf16[at], endUtf16: view.endUtf16[at + needle.length - 1] });
    }
    return out;
  }

  /** Index of the block a UTF-16 offset stands in (the last block starting at or before it), or -1. */
  blockAt(utf16: number): number {
    let lo = 0;
    let hi = this.blockStartsUtf16.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.blockStartsUtf16[mid] <= utf16) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** The heading a block stands under and every heading above it, outermost first. */
  chain(heading: number): number[] {
    const out: number[] = [];
    for (let h = heading; h >= 0; h = this.doc.headings[h].parent) out.unshift(h);
    return out;
  }

  /** A heading as printed: its number and its words. */
  headingName(h: FlowHeading | number): string {
    const heading = typeof h === "number" ? this.doc.headings[h] : h;
    return heading.number === undefined ? heading.title : `${heading.number} ${heading.title}`;
  }

  /** The heading chain as one string, `2 Methods > 2.1 Data`; empty before the first heading. */
  chainName(heading: number): string {
    return this.chain(heading)
      .map((h) => this.headingName(h))
      .join(" > ");
  }

  /**
   * A heading's section as a UTF-16 range: from the heading to the next heading of its level or
   * above (its subsections included), or to the end of the text.
   */
  sectionUtf16(heading: number): [number, number] {
    const headings = this.doc.headings;
    const start = headings[heading];
    const next = headings.find((h, i) => i > heading && h.level <= start.level);
    return [this.cp.toUtf16(start.startCp), next ? this.cp.toUtf16(next.startCp) : this.doc.text.length];
  }
}
