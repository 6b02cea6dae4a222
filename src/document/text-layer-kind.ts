/**
 * Where a page's text layer comes from, decided once when the page is extracted: text drawn
 * visibly (`native`), text drawn invisibly or hidden under an image (`ocr-layer`: someone else's
 * OCR of a scan), a scan whose text layer holds only a stamp, a header or a page number
 * (`sparse-over-image`), no text over something drawn that could hold the words as an image or as
 * outlines (`none`), or nothing at all (`blank`: no object of any kind on the page, such as the
 * empty page between chapters). Only `native`, `ocr-layer` and `blank` pages can show that words are
 * absent from a page: a blank page holds none.
 */
import type { Box, GraphicObject, LineInfo, PageText } from "./model.js";

export const TEXT_LAYERS = ["native", "ocr-layer", "sparse-over-image", "none", "blank"] as const;
export type TextLayerKind = (typeof TEXT_LAYERS)[number];

export const TEXT_LAYER_MEANINGS: Record<TextLayerKind, string> = {
  native: "text drawn visibly by the PDF: the words as the page prints them",
  "ocr-layer":
    "text drawn invisibly (render mode 3) or hidden under an image: an OCR reading someone else made of a scan, which can misread",
  "sparse-over-image":
    "an image covers most of the page and the text layer holds only a little of it (a stamp, a header, a page number): the page's words are an image",
  none: "no text, but an image or a drawing: the page's words, if any, are an image",
  blank: "nothing at all: no text, no image, no drawing (an empty page); it holds no words",
};

/** The page's layer; a record made before layers were decided reads as native or none. */
export function pageLayer(page: PageText): TextLayerKind {
  return page.textLayer ?? (page.hasTextLayer ? "native" : "none");
}

/** The pages (1-based) of each layer that occurs; pages not read are left out. */
export function pagesByLayer(
  pages: readonly (PageText | undefined)[],
): Partial<Record<TextLayerKind, number[]>> {
  const out: Partial<Record<TextLayerKind, number[]>> = {};
  for (const page of pages) {
    if (!page) continue;
    const layer = pageLayer(page);
    const list = out[layer] ?? [];
    list.push(page.page);
    out[layer] = list;
  }
  return out;
}

/** Layers whose text stands for the page's words, so that a quotation can be found absent there. */
export function hasUsableText(layer: TextLayerKind): boolean {
  return layer === "native" || layer === "ocr-layer" || layer === "blank";
}

/** At least this share of the page's characters hidden makes the layer an OCR layer. */
export const HIDDEN_SHARE = 0.5;
/** Images covering at least this share of the page make it a scan. */
export const IMAGE_PAGE_SHARE = 0.5;
/**
 * On a page mostly covered by images, text lines covering less than this share of the images' area
 * are a stamp, a header or a page number, not the page's words: a page of running text covers tens
 * of percent, a figure page's captions or a slide's bullets several; a 19-character stamp or a page
 * number well under one.
 */
export const SPARSE_TEXT_SHARE = 0.02;

export interface TextLayerSignals {
  /** Non-whitespace characters of the text layer. */
  chars: number;
  /** Of them, those drawn invisibly (render mode 3 or 7) or under an image painted after them. */
  hiddenChars: number;
  lines: readonly LineInfo[];
  graphics: readonly GraphicObject[];
  cropBox: Box;
  /**
   * The page's objects of every kind (text, paths, images, forms and what they hold); blank needs
   * none, so that nothing drawn (a glyph with no character code, a shading) can hold the words.
   */
  objects?: number;
}

export function decideTextLayer(signals: TextLayerSignals): TextLayerKind {
  if (signals.chars === 0) return signals.objects === 0 ? "blank" : "none";
  if (signals.hiddenChars >= signals.chars * HIDDEN_SHARE) return "ocr-layer";
  const pageArea = area(signals.cropBox);
  if (pageArea <= 0) return "native";
  let imageArea = 0;
  for (const g of signals.graphics)
    if (g.kind === "image") imageArea += area(intersection(g.box, signals.cropBox));
  imageArea = Math.min(imageArea, pageArea);
  if (imageArea < pageArea * IMAGE_PAGE_SHARE) return "native";
  // All the text, wherever it stands: a figure page's captions beside its images are the page's words.
  let textArea = 0;
  for (const line of signals.lines) textArea += area(intersection(line.box, signals.cropBox));
  return textArea < imageArea * SPARSE_TEXT_SHARE ? "sparse-over-image" : "native";
}

function area(b: Box): number {
  return Math.max(0, b.right - b.left) * Math.max(0, b.top - b.bottom);
}

function intersection(a: Box, b: Box): Box {
  return {
    left: Math.max(a.left, b.left),
    bottom: Math.max(a.bottom, b.bottom),
    right: Math.min(a.right, b.right),
    top: Math.min(a.top, b.top),
  };
}
