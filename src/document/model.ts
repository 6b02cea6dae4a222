/**
 * The document model: what the engine adapter derives from a PDF, per physical page (1-based).
 * Every coordinate is in PDF default user space (origin at the bottom-left of the MediaBox
 * coordinate system, y up), whatever the page's CropBox and /Rotate say.
 */

import { derivationKey } from "../util/derivation.js";
import type { TextLayerKind } from "./text-layer-kind.js";

/** The digest of the extractor's code (util/derivation-graph.ts): part of the cache key, never bumped by hand. */
export const EXTRACTOR_VERSION = derivationKey("page-text");
/** Version of the stored extraction record's schema (anchors included from schema 2). */
export const EXTRACTION_SCHEMA_VERSION = 2;

export interface Box {
  left: number;
  bottom: number;
  right: number;
  top: number;
}

export type GeometryQuality = "glyph" | "char_estimated" | "text_item" | "ocr_word" | "ocr_region";

export type Rotation = 0 | 90 | 180 | 270;

export interface LineInfo {
  /** Offset of the line's first UTF-16 unit in PageText.text. */
  startUtf16: number;
  /** Offset one past the line's last UTF-16 unit (the '\n' that ends it is not included). */
  endUtf16: number;
  box: Box;
  /** Most common font size on the line (0 when unknown). */
  fontSize: number;
  /**
   * The font (an index into PageText.fonts) nearly every character of the line is set in: -1 when
   * the line mixes faces (a run-in bold word) or none is known; absent in records made before.
   */
  font?: number;
}

export interface GraphicObject {
  kind: "image" | "path";
  box: Box;
}

/** The text layer of one page: light enough to hold for every page of a long document. */
export interface PageText {
  page: number;
  mediaBox: Box;
  cropBox: Box;
  rotation: Rotation;
  /** Width and height of the CropBox as displayed (after /Rotate). */
  width: number;
  height: number;
  /**
   * The page's text in reading order. Lines are separated by '\n'; a typesetter's line-end hyphen
   * is kept as '-' and listed in lineEndHyphensUtf16.
   */
  text: string;
  lines: LineInfo[];
  /** UTF-16 offsets in text of hyphens the engine flagged as line-end hyphenation. */
  lineEndHyphensUtf16: number[];
  /**
   * UTF-16 offsets in text where a raised smaller run (footnote mark, exponent) meets ordinary text
   * with no space between: matching may read a word boundary there. Absent in older records.
   */
  scriptBreaksUtf16?: number[];
  graphics: GraphicObject[];
  /** Number of graphics objects dropped beyond the per-page cap. */
  graphicsDropped: number;
  /** Fonts used on the page; PageGeometry.fontIndex points into this list. */
  fonts: string[];
  /** True when the page carries at least one non-whitespace native character. */
  hasTextLayer: boolean;
  /**
   * Where the text layer comes from (text-layer-kind.ts). Absent in records made before it was
   * decided: read it through pageLayer().
   */
  textLayer?: TextLayerKind;
  /** Width times height, in its own pixels, of the page's largest image (0 without one). Absent in older records. */
  largestImagePixels?: number;
  /** The page's label from the PDF's /PageLabels (the number printed on it, as the file declares it). */
  pageLabel?: string;
  /** The first page's record only: the document's title from its Info dictionary (`/Title`), when not blank. */
  metadataTitle?: string;
  /** Set when the engine could not extract this page; text is then empty. */
  extractionError?: string;
}

/** Character geometry of one page, one entry per UTF-16 unit of PageText.text. */
export interface PageGeometry {
  page: number;
  /** left, bottom, right, top per unit: the tight glyph box; NaN for generated characters. */
  glyphBoxes: Float32Array;
  /** left, bottom, right, top per unit: the loose box (advance x font ascent/descent). */
  looseBoxes: Float32Array;
  /** x, y per unit: the glyph origin. */
  origins: Float32Array;
  fontSizes: Float32Array;
  /** Index into PageText.fonts; -1 for generated characters. */
  fontIndex: Int16Array;
  /** Bit flags per unit, see CHAR_FLAG_*. */
  flags: Uint8Array;
}

export const CHAR_FLAG_GENERATED = 1;
export const CHAR_FLAG_LINE_END_HYPHEN = 2;

export interface ExtractedPage {
  text: PageText;
  /** Absent when only the text layer was asked for. */
  geometry?: PageGeometry;
}

export interface DocumentInfo {
  sha256: string;
  pageCount: number;
  bytes: number;
  extractorVersion: string;
}
