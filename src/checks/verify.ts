/** Checks evidence records against one opened document, in input order. */
import type { ExtractionCache } from "../document/cache.js";
import type { PageText } from "../document/model.js";
import { DEFAULT_TIMEOUT_MS, holdsEveryPage, type OpenedDocument } from "../document/open.js";
import type { PageSource } from "../document/page-source.js";
import { pageLayer } from "../document/text-layer-kind.js";
import type { AnchorsOptions, AnchorsRecord } from "../layout/anchors.js";
import type { EveryPageReadable } from "../text/every-page.js";
import { FoldedPages } from "../text/folded-pages.js";
import type { SerializedTokenIndex } from "../text/token-index.js";
import { derivationKey } from "../util/derivation.js";
import { cutByDeadline, isDeadline, undecided } from "./deadline-cut.js";
import { checkEquation } from "./equation.js";
import type { EvidenceRecord } from "./evidence-record.js";
import { checkFigure } from "./figure.js";
import { checkPage } from "./page.js";
import { checkSectionQuotation } from "./pdf-section-quotation.js";
import { checkQuotation } from "./quotation.js";
import type { CheckResult } from "./result.js";
import { withEvidence } from "./with-evidence.js";

export interface VerifyReport {
  document: { sha256: string; pages: number };
  results: CheckResult[];
}

/** What the checks need from a document; kept apart so sessions can check against a stored record. */
export interface CheckContext {
  sha256: string;
  pageCount: number;
  pages: FoldedPages;
  /** Equation and figure anchors. Absent (with no loader) means not available: a stored record that predates them. */
  anchors?: AnchorsRecord;
  /** Computes the anchors on first need; set for contexts built from an opened document. */
  loadAnchors?: () => Promise<AnchorsRecord>;
}

/** A context for an opened document; its anchors are computed (or read from the cache) when first needed. */
export function checkContext(doc: OpenedDocument, options: AnchorsOptions = {}): CheckContext {
  let pending: Promise<AnchorsRecord> | undefined;
  return {
    sha256: doc.sha256,
    pageCount: doc.pageCount,
    pages: foldedPagesOf(doc),
    loadAnchors: () => {
      // The layout rules are loaded only when a record needs them.
      pending ??= import("../layout/anchors.js").then(({ documentAnchors }) => documentAnchors(doc, options));
      return pending;
    },
  };
}

/** The cache record the token index is kept under, named by the derivation key of the code that builds it. */
export const TOKEN_INDEX_RECORD = `token-index-${derivationKey("token-index")}`;

/**
 * Folded pages whose token index is read from, or once built written to, the extraction cache.
 * `pages` may stand for the document's pages (a reading plan's, which holds only the pages read so
 * far): an index is built only over every page, so it is never stored from part of a document.
 */
export function foldedPagesOf(
  doc: OpenedDocument,
  pages: readonly (PageText | undefined)[] = doc.pages,
  keepViews?: (page: number) => boolean,
): FoldedPages {
  if (pages === doc.pages && !holdsEveryPage(doc.pages, doc.pageCount))
    return new FoldedPages(pages, keepViews ? { keepViews } : {});
  return foldedPagesWith(doc.cache, pages, keepViews);
}

/** Folded pages whose records (and token index) are read from and kept in `cache`, when there is one. */
export function foldedPagesWith(
  cache: ExtractionCache | undefined,
  pages: PageSource | readonly (PageText | undefined)[],
  keepViews?: (page: number) => boolean,
  everyPage?: EveryPageReadable,
): FoldedPages {
  const reading = {
    ...(keepViews ? { keepViews } : {}),
    ...(everyPage ? { everyPage } : {}),
  };
  if (!cache) return new FoldedPages(pages, reading);
  const write = (name: string, value: unknown) => {
    try {
      cache.writeRecord(name, value);
    } catch {
      // An unwritable cache slows the next run; it never changes a result.
    }
  };
  return new FoldedPages(pages, {
    tokenIndex: cache.readRecord<SerializedTokenIndex>(TOKEN_INDEX_RECORD),
    onTokenIndexBuilt: (index) => write(TOKEN_INDEX_RECORD, index),
    records: { read: (name) => cache.readRecord<unknown>(name), write },
    ...reading,
  });
}

/**
 * A context for a stored extraction record: its pages and, when the record has them (extraction
 * schema 2 on), its anchors. Without anchors, equation and figure records FAIL as unavailable.
 */
export function checkContextFromRecord(record: {
  sha256: string;
  pageCount: number;
  pages: readonly (PageText | undefined)[];
  anchors?: AnchorsRecord;
}): CheckContext {
  return {
    sha256: record.sha256,
    pageCount: record.pageCount,
    pages: new FoldedPages(record.pages),
    ...(record.anchors ? { anchors: withUnreadable(record.anchors, record.pages) } : {}),
  };
}

/** A stored anchors record that predates `pagesUnreadable` takes it from the stored pages. */
function withUnreadable(anchors: AnchorsRecord, pages: readonly (PageText | undefined)[]): AnchorsRecord {
  if (anchors.pagesUnreadable) return anchors;
  const unreadable = pages.flatMap((p, i) => (p?.extractionError !== undefined ? [i + 1] : []));
  return { ...anchors, pagesUnreadable: unreadable };
}

type TextRecord = Extract<EvidenceRecord, { kind: "quotation" | "page" }>;

/** Checks one record. Quotation and page records answer at once; equation and figure records may first need the anchors. */
export function checkRecord(context: CheckContext, record: TextRecord): CheckResult;
export function checkRecord(
  context: CheckContext,
  record: EvidenceRecord,
): CheckResult | Promise<CheckResult>;
export function checkRecord(
  context: CheckContext,
  record: EvidenceRecord,
): CheckResult | Promise<CheckResult> {
  switch (record.kind) {
    case "quotation":
      return record.section !== undefined
        ? checkSectionQuotation(context.pages, context.pageCount, { ...record, section: record.section })
        : checkQuotation(context.pages, context.pageCount, record);
    case "page":
      return checkPage(context.pageCount, record, context.pages.labels);
    case "equation":
      return anchorsOf(context).then((anchors) => withLayer(context, checkEquation(anchors, record)));
    case "figure":
      return anchorsOf(context).then((anchors) => withLayer(context, checkFigure(anchors, record)));
  }
}

/**
 * The result with the text layer of the page (`layer`) or pages (`layers`, in the same order) its
 * evidence names, where those pages exist.
 */
function withLayer(context: CheckContext, result: CheckResult): CheckResult {
  const { page, pages } = result.evidence;
  const layerOf = (p: unknown) => {
    const text = typeof p === "number" ? context.pages.pages.get(p) : undefined;
    return text ? pageLayer(text) : undefined;
  };
  const layer = layerOf(page);
  if (layer) return withEvidence(result, { layer });
  if (Array.isArray(pages) && pages.length > 0 && pages.every((p) => layerOf(p) !== undefined))
    return withEvidence(result, { layers: pages.map(layerOf) });
  return result;
}

async function anchorsOf(context: CheckContext): Promise<AnchorsRecord | undefined> {
  if (context.anchors) return context.anchors;
  if (!context.loadAnchors) return undefined;
  context.anchors = await context.loadAnchors();
  return context.anchors;
}

/**
 * Checks every record; the anchors are computed only when an equation or figure record needs them.
 * A record whose layout rules the deadline cut is FLAG `deadline`, never a FAIL nor an error.
 */
export async function verifyEvidence(
  doc: OpenedDocument,
  records: EvidenceRecord[],
  options: AnchorsOptions = {},
): Promise<VerifyReport> {
  const context = checkContext(doc, options);
  const results: CheckResult[] = [];
  for (const record of records) {
    try {
      results.push(await checkRecord(context, record));
    } catch (error) {
      if (!isDeadline(error)) throw error;
      const limitMs = options.deadline?.totalMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      results.push(cutByDeadline(undecided(record), { limitMs, step: "the layout rules", pagesNotRead: [] }));
    }
  }
  return { document: { sha256: doc.sha256, pages: doc.pageCount }, results };
}
