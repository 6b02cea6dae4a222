/**
 * Builds a FlowDocument block by block, so every reader computes offsets, the heading tree and the
 * paragraph indices the same way. A block's text is trimmed, its invisible direction marks dropped
 * and its whitespace runs (line breaks included) read as one space; an empty block is dropped. Offsets count code points.
 */

import { codePointLength } from "../../util/codepoints.js";
import {
  FLOW_READER_VERSION,
  type FlowBlock,
  type FlowBlockKind,
  type FlowDocument,
  type FlowHeading,
  type FlowKind,
  type FlowLabel,
  type FlowLabelKind,
  type FlowPageLabel,
  type FlowRegion,
} from "./model.js";

const BLOCK_SEPARATOR = "\n\n";
const SEPARATOR_CP = 2;
const SPACE_RUN = /[\s\u00a0\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/gu;

/**
 * A printed heading number: `2`, `2.1`, `2.1.3.`, `A`, `A.2`, a Roman numeral with its dot, or such a
 * number after `Chapter`, `Section` or `Appendix`; the words follow after white space.
 */
const HEADING_NUMBER =
  /^(?:(?:chapter|section|appendix|part)\s+)?((?:\d{1,3}|[A-Z])(?:\.\d{1,3}){0,5}|[IVXLC]{1,7}(?=\.))\.?\s+(\S.*)$/isu;

/** The printed number and the words of a heading's text. */
export function splitHeadingNumber(text: string): { number?: string; title: string } {
  const match = HEADING_NUMBER.exec(text);
  if (!match) return { title: text };
  // A single capital letter with nothing marking it as a number ("A Study of ...") is a word.
  const number = match[1];
  const marked = /^[A-Z]$/u.test(number)
    ? /^\S+\.\s|^(?:appendix|chapter|section|part)\s/iu.test(text)
    : true;
  return marked ? { number, title: match[2] } : { title: text };
}

export interface BlockOptions {
  region?: FlowRegion;
  /** The heading the block stands under when it is not the current one (a note moved to the end). */
  heading?: number;
}

export class FlowBuilder {
  title: string | undefined;
  language: string | undefined;
  private readonly parts: string[] = [];
  private lengthCp = 0;
  private readonly headings: FlowHeading[] = [];
  private readonly blocks: FlowBlock[] = [];
  private readonly labels: FlowLabel[] = [];
  private pageLabels: FlowPageLabel[] | undefined;
  private current = -1;

  constructor(
    readonly kind: FlowKind,
    readonly sha256: string,
  ) {}

  /** Index of the heading new blocks stand under, or -1. */
  get currentHeading(): number {
    return this.current;
  }

  /**
   * Appends a heading of level 1-9 (clamped); its printed number is split from its words unless
   * given. Returns its index in headings, or -1 when the text is empty.
   */
  heading(level: number, text: string, number?: string): number {
    const clean = normalise(text);
    if (clean === "") return -1;
    const split = number === undefined ? splitHeadingNumber(clean) : { number, title: clean };
    const lvl = Math.min(9, Math.max(1, Math.trunc(level)));
    let parent = this.current;
    while (parent >= 0 && this.headings[parent].level >= lvl) parent = this.headings[parent].parent;
    const index = this.headings.length;
    // The heading stands under itself: its own words are in its section.
    this.current = index;
    const block = this.append("heading", clean, { region: "body", heading: index });
    const { startCp, endCp } = this.blocks[block];
    this.headings.push({ level: lvl, ...split, parent, block, startCp, endCp });
    return index;
  }

  /** Appends a block; returns its index in blocks, or -1 when its text is empty. */
  block(kind: Exclude<FlowBlockKind, "heading">, text: string, options: BlockOptions = {}): number {
    const clean = normalise(text);
    if (clean === "") return -1;
    return this.append(kind, clean, options);
  }

  /** Records a printed label carried by a block. */
  label(kind: FlowLabelKind, label: string, block: number): void {
    const clean = normalise(label);
    if (clean !== "" && block >= 0 && block < this.blocks.length)
      this.labels.push({ kind, label: clean, block });
  }

  /** Marks a printed page as starting where the next block will. */
  pageLabel(label: string): void {
    const clean = normalise(label);
    if (clean === "") return;
    this.pageLabels ??= [];
    this.pageLabels.push({ label: clean, startCp: this.nextStartCp() });
  }

  finish(): FlowDocument {
    const text = this.parts.join("");
    const doc: FlowDocument = {
      kind: this.kind,
      sha256: this.sha256,
      text,
      lengthCp: this.lengthCp,
      headings: this.headings,
      blocks: this.blocks,
      labels: this.labels,
      readerVersion: FLOW_READER_VERSION,
    };
    const title = this.title === undefined ? "" : normalise(this.title);
    if (title !== "") doc.title = title;
    if (this.language) doc.language = this.language.trim();
    if (this.pageLabels)
      doc.pageLabels = this.pageLabels.map((p) => ({ ...p, startCp: Math.min(p.startCp, this.lengthCp) }));
    return doc;
  }

  private nextStartCp(): number {
    return this.blocks.length === 0 ? 0 : this.lengthCp + SEPARATOR_CP;
  }

  private append(kind: FlowBlockKind, clean: string, options: BlockOptions): number {
    if (this.blocks.length > 0) {
      this.parts.push(BLOCK_SEPARATOR);
      this.lengthCp += SEPARATOR_CP;
    }
    const startCp = this.lengthCp;
    this.parts.push(clean);
    this.lengthCp += codePointLength(clean);
    this.blocks.push({
      kind,
      region: options.region ?? "body",
      heading: options.heading ?? this.current,
      startCp,
      endCp: this.lengthCp,
    });
    return this.blocks.length - 1;
  }
}

/**
 * Direction marks and embeddings, and the zero-width space and word joiner: invisible, they only
 * steer how the text is shown, so they are not part of its words (neither in a source nor in a quotation).
 */
const INVISIBLE = /[\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069]/gu;

export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, "");
}

/** Invisible marks dropped, whitespace runs as one space, trimmed. */
function normalise(text: string): string {
  return withoutInvisible(text).replace(SPACE_RUN, " ").trim();
}
