/**
 * Checking against the cited pages first: the document is opened for the pages the records name,
 * each record is checked against a context that holds only those pages, and the rest of the
 * document is read only for the records whose check reached for a page not read (a quotation not
 * on its page is looked for on every other page). A check that completes against the partial
 * context touched only pages it holds, so its result is the one the whole document gives.
 */

import type { ExtractionCache } from "../document/cache.js";
import { completeDocument } from "../document/complete.js";
import type { PageText } from "../document/model.js";
import {
  documentCache,
  type OpenedDocument,
  type OpenOptions,
  openDocument,
  pdfSource,
} from "../document/open.js";
import type { AnchorsOptions } from "../layout/anchors.js";
import type { PdfBytes } from "../source/file.js";
import { RUNNING_HEAD_WINDOW } from "../text/page-regions.js";
import { LABEL_READ_RADIUS } from "../text/printed-labels.js";
import type { OcrMode } from "./cite-check/verdicts.js";
import type { EvidenceRecord } from "./evidence-record.js";
import { applyOcr, DEFAULT_OCR_TIMEOUT_MS, type QuotationOcrOptions } from "./ocr-quotations.js";
import { openForChecks } from "./open-for-checks.js";
import type { CheckResult } from "./result.js";
import { KeptResults, resultsRecordName } from "./result-cache.js";
import {
  type CheckContext,
  checkContext,
  checkRecord,
  foldedPagesOf,
  type VerifyReport,
  verifyEvidence,
} from "./verify.js";

/** Thrown by a partial context when a check reaches for a page it does not hold. */
class PageNotRead extends Error {
  constructor(readonly page: number) {
    super(`page ${page} was not read`);
  }
}

/**
 * The pages of a document opened for some of them, as an array that throws PageNotRead for a page
 * it lacks (and for any whole-document walk), so no check can take an absent page for an empty one.
 * Pages put into `pages` later are read through it as they are.
 */
function heldPagesOnly(pages: (PageText | undefined)[]): readonly (PageText | undefined)[] {
  return new Proxy(pages, {
    get(target, key, receiver) {
      if (typeof key === "string") {
        const first = key.charCodeAt(0);
        if (first >= 0x30 && first <= 0x39) {
          const index = Number(key);
          if (index < target.length && target[index] === undefined) throw new PageNotRead(index + 1);
        }
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

async function checkUnlessPageNotRead(
  context: CheckContext,
  record: EvidenceRecord,
): Promise<CheckResult | undefined> {
  try {
    return await checkRecord(context, record);
  } catch (error) {
    if (error instanceof PageNotRead) return undefined;
    throw error;
  }
}

/**
 * How many pages each side of a cited page are read with it: those its printed label is decided from
 * (a page record's too: its result names the label), and those that tell whether a line of it is a
 * running head.
 */
const READ_RADIUS = Math.max(LABEL_READ_RADIUS, RUNNING_HEAD_WINDOW);

/** The pages a record's check reads first: a quotation's cited pages and the pages around them. */
function citedPages(records: readonly EvidenceRecord[]): number[] {
  const pages = new Set<number>();
  for (const r of records) {
    if ((r.kind !== "quotation" && r.kind !== "page") || r.page === undefined) continue;
    if (!Number.isSafeInteger(r.page) || r.page < 1) continue;
    const last = r.kind === "quotation" && r.endPage !== undefined ? r.endPage : r.page;
    // Bounded where p++ still moves: past 2^53 - 1 a page plus one is the same number.
    const end = Math.min(last + READ_RADIUS, Number.MAX_SAFE_INTEGER);
    for (let p = Math.max(1, r.page - READ_RADIUS); p <= end; p++) pages.add(p);
  }
  return [...pages];
}

export type VerifyOptions = OpenOptions &
  AnchorsOptions & {
    /** OCR of cited pages whose words are an image (auto), or also where the text gave no PASS (tesseract). */
    ocr?: OcrMode;
  };

/**
 * Verifies evidence records against a PDF, reading the cited pages first and the rest of the
 * document only when a record needs it. Equation and figure records need the anchors, decided over
 * every page: then the document is opened whole, with the geometry they are decided from.
 */
export async function verifyPdf(
  input: string | PdfBytes,
  records: EvidenceRecord[],
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  if (records.some((r) => r.kind === "equation" || r.kind === "figure")) {
    const doc = await openForChecks(input, options, true);
    const report = await verifyEvidence(doc, records, options);
    if (!options.ocr) return report;
    return {
      ...report,
      results: await applyOcr(checkContext(doc, options), records, report.results, ocrOptions(doc, options)),
    };
  }
  const source = await pdfSource(input, options);
  // Results kept from earlier runs answer their records; OCR reads more than the text layer.
  const cache = options.ocr ? undefined : documentCache(source.sha256, options);
  const kept = cache && keptResultsOf(cache);
  const results: (CheckResult | undefined)[] = records.map((record) => kept?.get(record));
  const pageCount = cache?.readDoc()?.pageCount;
  if (pageCount !== undefined && results.every((r) => r !== undefined))
    return { document: { sha256: source.sha256, pages: pageCount }, results: results as CheckResult[] };
  const unknown = records.filter((_, i) => results[i] === undefined);
  const cited = await openDocument(source, { ...options, pages: citedPages(unknown) });
  // The context holds the pages read so far; when the rest of the document comes in, into the same
  // array, the views folded from the cited pages are kept.
  const pages = Array.from(cited.pages);
  pages.length = cited.pageCount;
  const context: CheckContext = {
    sha256: cited.sha256,
    pageCount: cited.pageCount,
    pages: foldedPagesOf(cited, heldPagesOnly(pages)),
    // Anchors are decided over every page.
    loadAnchors: () => Promise.reject(new PageNotRead(0)),
  };
  const fresh = results.map((r) => r === undefined);
  for (let i = 0; i < records.length; i++)
    if (fresh[i]) results[i] = await checkUnlessPageNotRead(context, records[i]);
  if (results.some((r) => r === undefined)) {
    const whole = await completeDocument(cited, options);
    for (let i = 0; i < pages.length; i++) pages[i] ??= whole.pages[i];
    for (let i = 0; i < records.length; i++) results[i] ??= await checkRecord(context, records[i]);
  }
  const checked = results as CheckResult[];
  context.pages.keepRecords();
  // A page that could not be read is tried again next time: what was checked without it is not kept.
  if (kept && !pages.some((page) => page?.extractionError !== undefined)) {
    for (let i = 0; i < records.length; i++) if (fresh[i]) kept.add(records[i], checked[i]);
    kept.keep();
  }
  return {
    document: { sha256: cited.sha256, pages: cited.pageCount },
    results: options.ocr ? await applyOcr(context, records, checked, ocrOptions(cited, options)) : checked,
  };
}

/** The results kept in a document's cache entry for this build's code, when its code can be read. */
function keptResultsOf(cache: ExtractionCache): KeptResults | undefined {
  const name = resultsRecordName();
  if (!name) return undefined;
  return new KeptResults(
    {
      read: (record) => cache.readRecord<unknown>(record),
      write: (record, value) => {
        try {
          cache.writeRecord(record, value);
        } catch {
          // An unwritable cache slows the next run; it never changes a result.
        }
      },
    },
    name,
  );
}

function ocrOptions(doc: OpenedDocument, options: VerifyOptions): QuotationOcrOptions {
  return {
    mode: options.ocr as OcrMode,
    doc,
    timeoutMs: options.timeoutMs ?? DEFAULT_OCR_TIMEOUT_MS,
    ...(options.password !== undefined ? { password: options.password } : {}),
  };
}
