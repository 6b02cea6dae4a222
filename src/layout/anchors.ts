/**
 * The anchors record: every equation label and figure caption a document prints, as decided from
 * its page layout, with every rejected equation-label candidate and its reasons. Computed once per
 * document and cached beside the extraction; stored extraction records (schema 2 on) carry it.
 */
import {
  type Box,
  EXTRACTION_SCHEMA_VERSION,
  EXTRACTOR_VERSION,
  type PageGeometry,
  type PageText,
} from "../document/model.js";
import { type OpenedDocument, openDocument } from "../document/open.js";
import { equationCandidates, mayHoldEquationLabels } from "./equation-labels.js";
import {
  type CaptionKeyword,
  type CaptionRejection,
  captionCandidates,
  decideCaptions,
  mayHoldCaptions,
} from "./figure-captions.js";
import { BandIndex, pageChars } from "./page-chars.js";
import type { RejectionReason } from "./rejection-reasons.js";
import { documentFrames } from "./text-frames.js";

/** Bumped whenever the layout rules change what they decide; part of the cached record's identity. */
export const LAYOUT_VERSION = "1";
/** The anchors record belongs to this extraction schema (the first that holds anchors). */
export const ANCHORS_SCHEMA_VERSION = EXTRACTION_SCHEMA_VERSION;
const RECORD_NAME = "anchors";

export interface EquationAnchor {
  label: string;
  page: number;
  /** Box of the printed "(label)". */
  labelBox: Box;
  /** Box of the displayed equation's line beside the label. */
  equationBox: Box;
  side: "right" | "left";
}

export interface RejectedEquationCandidate {
  label: string;
  /** The token as printed, e.g. "(3)." */
  printed: string;
  page: number;
  labelBox: Box;
  reasons: RejectionReason[];
}

export interface FigureAnchor {
  label: string;
  page: number;
  keyword: CaptionKeyword;
  separator: "." | ":";
  /** The caption's opening words. */
  text: string;
  labelBox: Box;
  captionBox: Box;
  /** The figure's graphics beside the caption, when any were found. */
  figureBox?: Box;
}

export interface RejectedCaption {
  label: string;
  page: number;
  text: string;
  labelBox: Box;
  reasons: CaptionRejection[];
}

export interface AnchorsRecord {
  schemaVersion: number;
  layoutVersion: string;
  extractorVersion: string;
  sha256: string;
  pageCount: number;
  equations: EquationAnchor[];
  rejectedEquationCandidates: RejectedEquationCandidate[];
  figures: FigureAnchor[];
  rejectedCaptions: RejectedCaption[];
  /** Pages that gave no text (no text layer or a failed extraction): nothing could be read there. */
  pagesWithoutText: number[];
}

export interface AnchorsInput {
  sha256: string;
  pageCount: number;
  /** Every page's text layer, indexed by page - 1. */
  pages: readonly (PageText | undefined)[];
  /** The geometry of a page; asked only for pages whose text could hold an anchor. */
  geometry: (page: number) => PageGeometry | undefined;
}

/** Pages whose text could hold an equation label or a caption: only these need geometry. */
export function pagesNeedingGeometry(pages: readonly (PageText | undefined)[]): number[] {
  const out: number[] = [];
  for (const page of pages) {
    if (page?.hasTextLayer && (mayHoldEquationLabels(page) || mayHoldCaptions(page))) out.push(page.page);
  }
  return out;
}

export function computeAnchors(input: AnchorsInput): AnchorsRecord {
  const frames = documentFrames(input.pages);
  const equations: EquationAnchor[] = [];
  const rejected: RejectedEquationCandidate[] = [];
  const captions = [];
  for (const page of pagesNeedingGeometry(input.pages)) {
    const text = input.pages[page - 1]!;
    const geometry = input.geometry(page);
    if (!geometry) continue;
    const chars = pageChars(text, geometry);
    const index = new BandIndex(chars);
    for (const c of equationCandidates(text, chars, frames, index)) {
      if (c.reasons.length === 0 && c.side && c.equationBox) {
        equations.push({
          label: c.label,
          page,
          labelBox: c.labelBox,
          equationBox: c.equationBox,
          side: c.side,
        });
      } else {
        rejected.push({
          label: c.label,
          printed: c.printed.trim(),
          page,
          labelBox: c.labelBox,
          reasons: c.reasons,
        });
      }
    }
    captions.push(...captionCandidates(text, chars, index, frames));
  }
  const figures: FigureAnchor[] = [];
  const rejectedCaptions: RejectedCaption[] = [];
  for (const c of decideCaptions(captions)) {
    if (c.rejections.length === 0) {
      figures.push({
        label: c.label,
        page: c.page,
        keyword: c.keyword,
        separator: c.separator,
        text: c.text,
        labelBox: c.labelBox,
        captionBox: c.captionBox,
        ...(c.figureBox ? { figureBox: c.figureBox } : {}),
      });
    } else {
      rejectedCaptions.push({
        label: c.label,
        page: c.page,
        text: c.text,
        labelBox: c.labelBox,
        reasons: c.rejections,
      });
    }
  }
  const pagesWithoutText: number[] = [];
  for (let p = 1; p <= input.pageCount; p++) {
    const text = input.pages[p - 1];
    if (!text?.hasTextLayer || text.extractionError !== undefined) pagesWithoutText.push(p);
  }
  return {
    schemaVersion: ANCHORS_SCHEMA_VERSION,
    layoutVersion: LAYOUT_VERSION,
    extractorVersion: EXTRACTOR_VERSION,
    sha256: input.sha256,
    pageCount: input.pageCount,
    equations,
    rejectedEquationCandidates: rejected,
    figures,
    rejectedCaptions,
    pagesWithoutText,
  };
}

export interface AnchorsOptions {
  password?: string;
  timeoutMs?: number;
}

/** Pages extracted at once when geometry must be read again (bounds the memory held). */
const GEOMETRY_BATCH = 64;

/**
 * The anchors of an opened document: from the cache when it holds a record made by these rules,
 * else computed from the pages' geometry (the cache's, or a fresh extraction) and cached.
 */
export async function documentAnchors(
  doc: OpenedDocument,
  options: AnchorsOptions = {},
): Promise<AnchorsRecord> {
  const cached = doc.cache?.readRecord<AnchorsRecord>(RECORD_NAME);
  if (cached && isCurrent(cached, doc.sha256)) return cached;
  // Opened for some pages only: the layout rules need every page's text.
  const pages: (PageText | undefined)[] = Array.from(
    { length: doc.pageCount },
    (_, i) => doc.pages[i] ?? doc.cache?.readPageText(i + 1),
  );
  const absent = pages.flatMap((p, i) => (p ? [] : [i + 1]));
  if (absent.length > 0) {
    const rest = await openDocument(doc.source, {
      noCache: true,
      pages: absent,
      password: options.password,
      timeoutMs: options.timeoutMs,
    });
    for (const p of absent) pages[p - 1] = rest.pages[p - 1];
  }
  const needed = pagesNeedingGeometry(pages);
  const held = new Map<number, PageGeometry>();
  const missing: number[] = [];
  for (const page of needed) {
    const geometry = doc.geometry.get(page) ?? doc.cache?.readPageGeometry(page);
    if (geometry) held.set(page, geometry);
    else missing.push(page);
  }
  for (let i = 0; i < missing.length; i += GEOMETRY_BATCH) {
    const batch = missing.slice(i, i + GEOMETRY_BATCH);
    const again = await openDocument(doc.source, {
      noCache: true,
      pages: batch,
      withGeometry: true,
      password: options.password,
      timeoutMs: options.timeoutMs,
    });
    for (const [page, geometry] of again.geometry) held.set(page, geometry);
  }
  const record = computeAnchors({
    sha256: doc.sha256,
    pageCount: doc.pageCount,
    pages,
    geometry: (page) => held.get(page),
  });
  if (doc.cache) {
    try {
      doc.cache.writeRecord(RECORD_NAME, record);
    } catch {
      // An unwritable cache costs time on the next run, never a result.
    }
  }
  return record;
}

function isCurrent(record: AnchorsRecord, sha256: string): boolean {
  return (
    isAnchorsRecord(record) &&
    record.schemaVersion === ANCHORS_SCHEMA_VERSION &&
    record.layoutVersion === LAYOUT_VERSION &&
    record.extractorVersion === EXTRACTOR_VERSION &&
    record.sha256 === sha256
  );
}

/** Checks the shape of an anchors record read from storage (a stored extraction, the cache). */
export function isAnchorsRecord(value: unknown): value is AnchorsRecord {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.schemaVersion === "number" &&
    typeof v.layoutVersion === "string" &&
    typeof v.sha256 === "string" &&
    typeof v.pageCount === "number" &&
    Array.isArray(v.equations) &&
    Array.isArray(v.rejectedEquationCandidates) &&
    Array.isArray(v.figures) &&
    Array.isArray(v.rejectedCaptions) &&
    Array.isArray(v.pagesWithoutText) &&
    (v.equations as unknown[]).every((e) => isLabelled(e)) &&
    (v.figures as unknown[]).every((f) => isLabelled(f)) &&
    (v.rejectedEquationCandidates as unknown[]).every(
      (c) => isLabelled(c) && Array.isArray((c as { reasons?: unknown }).reasons),
    )
  );
}

function isLabelled(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.label === "string" && typeof v.page === "number";
}
