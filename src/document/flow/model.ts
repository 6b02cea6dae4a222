/**
 * The flow document model: a source without pages (HTML, EPUB, DOCX, ODT, JATS, Markdown, plain
 * text) as its whole text in reading order with its structure beside it. Every offset into `text`
 * is in Unicode code points (fields end in `Cp`); a JS string index is a UTF-16 unit, so convert
 * with codepoints.ts, never by assuming they agree.
 */

import type { PdfBytes } from "../../source/file.js";
import { derivationKey } from "../../util/derivation.js";

/** The digest of the readers' code (util/derivation-graph.ts): part of the cache key of a parsed flow document. */
export const FLOW_READER_VERSION = derivationKey("flow");

export const FLOW_KINDS = ["html", "xhtml", "epub", "docx", "odt", "jats", "markdown", "text"] as const;
export type FlowKind = (typeof FLOW_KINDS)[number];

/** Every kind of source a check reads: a PDF or a flow kind. */
export type SourceKind = "pdf" | FlowKind;

/**
 * Where a block stands: the body's prose, a note kept apart from it, a table, a caption, or the
 * reference list.
 */
export const FLOW_REGIONS = ["body", "footnote", "table", "caption", "references"] as const;
export type FlowRegion = (typeof FLOW_REGIONS)[number];

/** What a block is in its format's markup. */
export const FLOW_BLOCK_KINDS = [
  "title",
  "heading",
  "paragraph",
  "list-item",
  "block-quote",
  "table-cell",
  "caption",
  "equation",
  "note",
  "reference",
] as const;
export type FlowBlockKind = (typeof FLOW_BLOCK_KINDS)[number];

export interface FlowHeading {
  /** 1 (a chapter or top section) to 9; a document title is not a heading. */
  level: number;
  /** The number printed before the heading's words ("2.1", "A", "IV"), without a trailing dot. */
  number?: string;
  /** The heading's words without the printed number. */
  title: string;
  /** Index in FlowDocument.headings of the heading this one stands under, or -1. */
  parent: number;
  /** Index in FlowDocument.blocks of the heading's own block. */
  block: number;
  startCp: number;
  endCp: number;
}

export interface FlowBlock {
  kind: FlowBlockKind;
  region: FlowRegion;
  /** Index in FlowDocument.headings of the nearest heading the block stands under, or -1. */
  heading: number;
  /** Code-point offset of the block's first character in FlowDocument.text. */
  startCp: number;
  /** Code-point offset one past the block's last character. */
  endCp: number;
}

export type FlowLabelKind = "figure" | "table" | "equation";

/** A printed label of a figure, table or equation ("Figure 3", "Table 2", "(2.1)"). */
export interface FlowLabel {
  kind: FlowLabelKind;
  /** As printed. */
  label: string;
  /** Index in FlowDocument.blocks of the caption or equation block that carries it. */
  block: number;
}

/** A printed page label (an EPUB page-list entry): the page starts at `startCp`. */
export interface FlowPageLabel {
  label: string;
  startCp: number;
}

export interface FlowDocument {
  kind: FlowKind;
  sha256: string;
  title?: string;
  /** BCP 47 tag as the source declares it. */
  language?: string;
  /** The whole text in reading order; blocks are separated by "\n\n". */
  text: string;
  /** Length of `text` in code points. */
  lengthCp: number;
  headings: FlowHeading[];
  /** In reading order; a block's paragraph index is its position here plus one. */
  blocks: FlowBlock[];
  labels: FlowLabel[];
  /** Present only when the source prints page labels (an EPUB page-list), in reading order. */
  pageLabels?: FlowPageLabel[];
  readerVersion: string;
}

/** Bounds a reader works within; crossing one is a coded error naming the part. */
export interface FlowLimits {
  /** Largest source accepted, in bytes. */
  maxBytes: number;
  /** Largest total a container's parts may inflate to, in bytes. */
  maxInflatedBytes: number;
  /** Largest inflated-to-compressed ratio of any one part. */
  maxInflateRatio: number;
  /** Deepest element nesting a markup reader walks before refusing the source. */
  maxDepth: number;
  /** Epoch milliseconds after which a reader gives up (EXTRACTION_TIMEOUT). */
  deadline?: number;
}

export const DEFAULT_FLOW_LIMITS: FlowLimits = {
  maxBytes: 256 * 1024 * 1024,
  maxInflatedBytes: 512 * 1024 * 1024,
  maxInflateRatio: 200,
  // Browsers stop nesting at 512; the HTML parser's cost grows with the square of the depth.
  maxDepth: 4096,
};

/** The bytes of a source (read once and hashed) and where they came from. */
export interface SourceBytes extends PdfBytes {
  /**
   * The charset the transport declared (an HTTP Content-Type's parameter), lower case. A text kind
   * honours it after a byte-order mark and before the charset the text declares itself.
   */
  charset?: string;
}

/** One format's reader: the same interface for every flow kind. */
export interface FlowReader {
  kind: FlowKind;
  /** Parses the source; bad input is a coded CiteproofError (CONTENT_INVALID naming the part). */
  read(source: SourceBytes, limits: FlowLimits): Promise<FlowDocument>;
}
