/**
 * The extraction record a session stores for each PDF it holds: every page's text layer, the
 * equation and figure anchors (from extraction schema 2), and the versions that made them. Checks
 * in a session run against this record, never against a fresh extraction, so a later citeproof
 * with a different extractor still answers from what the session saw.
 */
import { type CheckContext, checkContextFromRecord } from "../checks/verify.js";
import { EXTRACTION_SCHEMA_VERSION, EXTRACTOR_VERSION, type PageText } from "../document/model.js";
import { type OpenedDocument, unreadablePage } from "../document/open.js";
import {
  type AnchorsOptions,
  type AnchorsRecord,
  documentAnchors,
  isAnchorsRecord,
} from "../layout/anchors.js";
import { isObject } from "../util/json-object.js";
import { corrupt } from "./files.js";

/** Extraction schemas a session can read: 1 (pages only) and 2 (pages and anchors). */
export const READABLE_EXTRACTION_SCHEMAS = [1, 2] as const;
/** The first extraction schema that holds equation and figure anchors. */
export const ANCHORS_SINCE_SCHEMA = 2;

export interface StoredExtraction {
  schemaVersion: number;
  extractorVersion: string;
  /** The PDF's sha256. */
  sha256: string;
  pageCount: number;
  pages: PageText[];
  /** Absent in records made before schema 2. */
  anchors?: AnchorsRecord;
}

export async function extractionRecord(
  doc: OpenedDocument,
  options: AnchorsOptions = {},
): Promise<StoredExtraction> {
  const pages = doc.pages.map((page, i) => page ?? unreadablePage(i + 1, "the page was not extracted"));
  const anchors = await documentAnchors(doc, options);
  return {
    schemaVersion: EXTRACTION_SCHEMA_VERSION,
    extractorVersion: EXTRACTOR_VERSION,
    sha256: doc.sha256,
    pageCount: doc.pageCount,
    pages,
    anchors,
  };
}

/** The checks' context for a stored record; without anchors, equation and figure checks answer as unavailable. */
export function contextFromExtraction(record: StoredExtraction): CheckContext {
  return checkContextFromRecord(record);
}

/** True when the record's pages include one that gave no text (no text layer or a failed page). */
export function pagesWithoutText(record: StoredExtraction): number[] {
  return record.pages.filter((p) => !p.hasTextLayer || p.extractionError !== undefined).map((p) => p.page);
}

/** Checks a stored record's shape; the envelope's hash has already been checked. */
export function validateExtraction(value: unknown, schema: number, where: string): StoredExtraction {
  const bad = (problem: string) => corrupt(where, problem);
  if (!isObject(value)) throw bad("holds no extraction record");
  const { extractorVersion, sha256, pageCount, pages } = value;
  if (value.schemaVersion !== schema) throw bad("names a schema its envelope does not");
  if (typeof extractorVersion !== "string") throw bad('lacks "extractorVersion"');
  if (typeof sha256 !== "string" || !/^[0-9a-f]{64}$/.test(sha256)) throw bad('lacks the PDF\'s "sha256"');
  if (typeof pageCount !== "number" || !Number.isInteger(pageCount) || pageCount < 0)
    throw bad('lacks "pageCount"');
  if (!Array.isArray(pages) || pages.length !== pageCount) throw bad("does not hold one text layer per page");
  pages.forEach((page, i) => {
    if (!isPageText(page, i + 1)) throw bad(`holds a malformed text layer for page ${i + 1}`);
  });
  if (schema >= ANCHORS_SINCE_SCHEMA) {
    if (!isAnchorsRecord(value.anchors)) throw bad('lacks a well-formed "anchors" record');
    if (value.anchors.sha256 !== sha256 || value.anchors.pageCount !== pageCount) {
      throw bad("holds anchors of a different PDF");
    }
  }
  if (schema < ANCHORS_SINCE_SCHEMA && value.anchors !== undefined)
    throw bad("holds anchors its schema predates");
  return value as unknown as StoredExtraction;
}

function isPageText(value: unknown, page: number): value is PageText {
  if (!isObject(value) || value.page !== page) return false;
  if (typeof value.text !== "string" || typeof value.hasTextLayer !== "boolean") return false;
  if (!Array.isArray(value.lines) || !Array.isArray(value.lineEndHyphensUtf16)) return false;
  const length = value.text.length;
  for (const line of value.lines as unknown[]) {
    if (!isObject(line)) return false;
    const { startUtf16, endUtf16 } = line;
    if (typeof startUtf16 !== "number" || typeof endUtf16 !== "number") return false;
    if (startUtf16 < 0 || endUtf16 < startUtf16 || endUtf16 > length) return false;
  }
  return (value.lineEndHyphensUtf16 as unknown[]).every((h) => typeof h === "number" && h >= 0 && h < length);
}
