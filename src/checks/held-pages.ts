/**
 * The checks of `verifyPdf` (cited-pages-first.ts), loaded once it knows it must check something:
 * each record is checked against a context that holds only the pages read so far, and the rest of the
 * document is read only for the records whose check reached for a page not read. A check that
 * completes against the partial context touched only pages it holds, so its result is the one the
 * whole document gives. The first read's records are checked while its pages arrive: each once the
 * pages around its cited page are in, so the checks run while the engine reads the pages after.
 */
import { PageNoLongerStored, readRestOfDocument } from "../document/complete.js";
import type { PageText } from "../document/model.js";
import {
  DEFAULT_TIMEOUT_MS,
  documentCache,
  holdsEveryPage,
  type OpenedDocument,
  openDocument,
} from "../document/open.js";
import type { PdfBytes } from "../source/file.js";
import { indexTextsOf, NotEveryPageReadable } from "../text/folded-pages.js";
import { RUNNING_HEAD_WINDOW } from "../text/page-regions.js";
import { LABEL_READ_RADIUS } from "../text/printed-labels.js";
import { TokenIndexBuilder } from "../text/token-index.js";
import type { OcrMode } from "./cite-check/verdicts.js";
import type { VerifyOptions } from "./cited-pages-first.js";
import { cutByDeadline, isDeadline, undecided } from "./deadline-cut.js";
import type { EvidenceRecord } from "./evidence-record.js";
import { applyOcr, DEFAULT_OCR_TIMEOUT_MS, type QuotationOcrOptions, wantsOcr } from "./ocr-quotations.js";
import { openForChecks } from "./open-for-checks.js";
import type { CheckResult } from "./result.js";
import type { KeptResults } from "./result-cache.js";
import {
  type CheckContext,
  checkContext,
  checkRecord,
  foldedPagesWith,
  type VerifyReport,
  verifyEvidence,
} from "./verify.js";

/** Thrown by a partial context when a check reaches for a page it does not hold. */
class PageNotRead extends Error {
  constructor(readonly page: number) {
    super(`page ${page} was not read`);
  }
}

/** How pages not held are read once the rest of the document is in (none before). */
interface PagesReadLater {
  page?: (page: number) => PageText;
}

/**
 * The pages of a document opened for some of them, as an array that throws PageNotRead for a page
 * it lacks (and for any whole-document walk), so no check can take an absent page for an empty one.
 * Pages put into `pages` later are read through it as they are; once `later` can read the others,
 * they are read through it.
 */
function heldPagesOnly(
  pages: (PageText | undefined)[],
  later: PagesReadLater,
): readonly (PageText | undefined)[] {
  return new Proxy(pages, {
    get(target, key, receiver) {
      if (typeof key === "string") {
        const first = key.charCodeAt(0);
        if (first >= 0x30 && first <= 0x39) {
          const index = Number(key);
          if (index < target.length && target[index] === undefined) {
            if (later.page) return later.page(index + 1);
            throw new PageNotRead(index + 1);
          }
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
    if (error instanceof PageNotRead || error instanceof NotEveryPageReadable) return undefined;
    throw error;
  }
}

/**
 * How many pages each side of a cited page are read with it: those its printed label is decided from
 * (a page record's too: its result names the label), and those that tell whether a line of it is a
 * running head.
 */
const READ_RADIUS = Math.max(LABEL_READ_RADIUS, RUNNING_HEAD_WINDOW);

/** The pages a quotation or page record's check reads first: its cited pages and READ_RADIUS each side. */
function reachOf(r: EvidenceRecord): { first: number; last: number } | undefined {
  if ((r.kind !== "quotation" && r.kind !== "page") || r.page === undefined) return undefined;
  if (!Number.isSafeInteger(r.page) || r.page < 1) return undefined;
  const last = r.kind === "quotation" && r.endPage !== undefined ? r.endPage : r.page;
  // Bounded where p++ still moves: past 2^53 - 1 a page plus one is the same number.
  return {
    first: Math.max(1, r.page - READ_RADIUS),
    last: Math.min(last + READ_RADIUS, Number.MAX_SAFE_INTEGER),
  };
}

function everyPageHeld(pages: readonly (PageText | undefined)[]): boolean {
  for (let i = 0; i < pages.length; i++) if (pages[i] === undefined) return false;
  return true;
}

/** The pages the records' checks read first. */
function citedPages(records: readonly EvidenceRecord[]): number[] {
  const pages = new Set<number>();
  for (const r of records) {
    const reach = reachOf(r);
    if (reach) for (let p = reach.first; p <= reach.last; p++) pages.add(p);
  }
  return [...pages];
}

/**
 * A check made while the pages arrive: its result, or undefined when it reached for a page not in yet
 * (or failed otherwise: it is made again once the read ends, and fails there as it would have).
 */
function checkNow(context: CheckContext, record: EvidenceRecord): CheckResult | undefined {
  if (record.kind !== "quotation" && record.kind !== "page") return undefined;
  try {
    return checkRecord(context, record);
  } catch {
    return undefined;
  }
}

/** Equation and figure records need the anchors, decided over every page: the document is opened whole. */
export async function verifyWithAnchors(
  input: string | PdfBytes,
  records: EvidenceRecord[],
  options: VerifyOptions,
): Promise<VerifyReport> {
  const doc = await openForChecks(input, options, true);
  const report = await verifyEvidence(doc, records, options);
  if (!options.ocr) return report;
  return {
    ...report,
    results: await applyOcr(checkContext(doc, options), records, report.results, ocrOptions(doc, options)),
  };
}

/**
 * Checks the quotation and page records `results` does not answer yet (the others were kept from
 * earlier runs) against their cited pages first, then against the whole document for those that
 * need it, and keeps the new results in `kept`.
 */
export async function checkCitedPagesFirst(
  source: PdfBytes,
  records: EvidenceRecord[],
  results: (CheckResult | undefined)[],
  kept: KeptResults | undefined,
  options: VerifyOptions,
): Promise<VerifyReport> {
  const fresh = results.map((r) => r === undefined);
  // The context holds the pages read so far, put into this array as they arrive; the views folded
  // from them are kept for the run until a record needs the search over every page.
  const pages: (PageText | undefined)[] = [];
  // That search's token index, built from the moment a record needs it (see indexPages).
  let index: TokenIndexBuilder | undefined;
  // Once the rest of the document is stored, a page not held is read back from the cache.
  const readLater: PagesReadLater = {};
  let context: CheckContext | undefined;
  const open = (pageCount: number): CheckContext => {
    pages.length = pageCount;
    return {
      sha256: source.sha256,
      pageCount,
      pages: foldedPagesWith(
        documentCache(source.sha256, options),
        heldPagesOnly(pages, readLater),
        (page) => index === undefined && pages[page - 1] !== undefined,
        // The records checked while pages arrive must not build the token index from part of them,
        // nor build it again while it is being built from the pages arriving.
        () => readLater.page !== undefined || (index === undefined && everyPageHeld(pages)),
      ),
      // Anchors are decided over every page.
      loadAnchors: () => Promise.reject(new PageNotRead(0)),
    };
  };
  // Each record waits for the last page of its reach; pages arrive in page order.
  const due = new Map<number, number[]>();
  const onOpened = (pageCount: number) => {
    context = open(pageCount);
    for (let i = 0; i < records.length; i++) {
      const reach = fresh[i] ? reachOf(records[i]) : undefined;
      if (!reach || reach.first > pageCount) continue;
      const last = Math.min(reach.last, pageCount);
      const list = due.get(last);
      if (list) list.push(i);
      else due.set(last, [i]);
    }
  };
  // Pages below this one were put into the index (when it is being built) or were not held then.
  let indexedBelow = 1;
  /**
   * From the first record that needs the search over every page (it could not be answered from the
   * pages held), the index is built as the pages arrive and the views stop being kept: memory then
   * holds the index and the last pages' views, not every page's. Each page goes into the index once
   * the records due with it are checked, while the views they folded are still at hand. `from` 1
   * sweeps again over pages that came after their turn (those read from the cache come last).
   */
  const indexPages = (from: number, to: number, fromContext: CheckContext) => {
    if (!index) {
      if (fromContext.pages.hasIndex) return;
      index = new TokenIndexBuilder(fromContext.pageCount);
    }
    const last = Math.min(to, fromContext.pageCount);
    for (let page = from; page <= last; page++)
      if (pages[page - 1] && !index.has(page)) index.add(page, fromContext.pages.indexTexts(page));
    indexedBelow = Math.max(indexedBelow, last + 1);
  };
  const onPageText = (text: PageText) => {
    pages[text.page - 1] = text;
    const now = due.get(text.page);
    if (!now || !context) return;
    due.delete(text.page);
    let unanswered = false;
    for (const i of now) {
      const { first } = reachOf(records[i])!;
      // A page of the reach read from the cache comes in only at the end of the read.
      let held = true;
      for (let p = first; p <= text.page && held; p++) held = pages[p - 1] !== undefined;
      if (held) results[i] = checkNow(context, records[i]);
      unanswered ||= results[i] === undefined;
    }
    if (!index && !unanswered) return;
    const started = index === undefined;
    indexPages(indexedBelow, text.page - READ_RADIUS, context);
    if (started) context.pages.releaseViews();
  };
  const unknown = records.filter((_, i) => fresh[i]);
  let cited: OpenedDocument;
  try {
    cited = await openDocument(source, {
      ...options,
      pages: citedPages(unknown),
      onOpened,
      onPageText,
    });
  } catch (error) {
    // Past the deadline with the page count known: what the pages read decided stands, the rest FLAG.
    if (!isDeadline(error)) throw error;
    const cache = documentCache(source.sha256, options);
    const count = context?.pageCount ?? cache?.readDoc()?.pageCount;
    if (count === undefined) throw error;
    context ??= open(count);
    // The pages the cache held were not given to onPageText: they are taken from it now.
    if (cache)
      for (const page of citedPages(unknown))
        if (page <= count) pages[page - 1] ??= cache.readPageText(page) ?? undefined;
    return cutReport(context, records, results, pages, options);
  }
  context ??= open(cited.pageCount);
  for (let i = 0; i < cited.pageCount; i++) pages[i] ??= cited.pages[i];
  // Every page read: the index begun while they arrived is finished now, before the records wait on it.
  if (index && holdsEveryPage(pages, cited.pageCount)) {
    indexPages(1, cited.pageCount, context);
    context.pages.adoptIndex(index.finish());
  }
  for (let i = 0; i < records.length; i++)
    if (fresh[i]) results[i] ??= await checkUnlessPageNotRead(context, records[i]);
  let anyUnreadable = pages.some((page) => page?.extractionError !== undefined);
  if (results.some((r) => r === undefined)) {
    // The pages are held by `pages` alone, so that they can be let go below.
    cited.pages.length = 0;
    // The token index the search over every page needs is built while the other pages arrive.
    indexPages(1, cited.pageCount, context);
    const building = context.pages.hasIndex ? undefined : index;
    // From here on memory holds the index and a few pages: the pages read first are stored with the
    // rest and read back like them, their views folded again when a check reaches them. (When they
    // are every page, nothing is read and they stay.)
    if (!holdsEveryPage(pages, cited.pageCount)) context.pages.releaseViews();
    let rest: Awaited<ReturnType<typeof readRestOfDocument>>;
    try {
      rest = await readRestOfDocument(
        cited,
        pages,
        options,
        building && ((text: PageText) => building.add(text.page, indexTextsOf(text))),
      );
    } catch (error) {
      if (!isDeadline(error)) throw error;
      return cutReport(context, records, results, pages, options);
    }
    anyUnreadable = rest.anyUnreadable;
    readLater.page = rest.readPage;
    if (building) context.pages.adoptIndex(building.finish());
    let lost = false;
    for (let i = 0; i < records.length; i++) {
      try {
        results[i] ??= await checkRecord(context, records[i]);
      } catch (error) {
        if (!(error instanceof PageNoLongerStored)) throw error;
        lost = true;
      }
    }
    if (lost) {
      // The cache lost a page since it was stored (emptied, or damaged): every page is read again, held.
      const whole = await openDocument(source, { ...options, noCache: true });
      for (let i = 0; i < pages.length; i++) pages[i] ??= whole.pages[i];
      for (let i = 0; i < records.length; i++) results[i] ??= await checkRecord(context, records[i]);
    }
  }
  const checked = results as CheckResult[];
  context.pages.keepRecords();
  // A page that could not be read is tried again next time: what was checked without it is not kept.
  if (kept && !anyUnreadable) {
    for (let i = 0; i < records.length; i++) if (fresh[i]) kept.add(records[i], checked[i]);
    kept.keep();
  }
  return {
    document: { sha256: cited.sha256, pages: cited.pageCount },
    results: options.ocr ? await applyOcr(context, records, checked, ocrOptions(cited, options)) : checked,
  };
}

/**
 * The report once the deadline cut the extraction: the records checked on the pages read keep their
 * results; the others FLAG `deadline`, naming the pages not read. Nothing is kept in the cache (the
 * pages read are, as every extraction stores them), and OCR is not started past the deadline.
 */
async function cutReport(
  context: CheckContext,
  records: readonly EvidenceRecord[],
  results: readonly (CheckResult | undefined)[],
  pages: readonly (PageText | undefined)[],
  options: VerifyOptions,
): Promise<VerifyReport> {
  const notRead: number[] = [];
  for (let i = 0; i < context.pageCount; i++) if (pages[i] === undefined) notRead.push(i + 1);
  const cut = { limitMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, step: "extraction", pagesNotRead: notRead };
  const out: CheckResult[] = [];
  for (let i = 0; i < records.length; i++) {
    // A record the pages read decide (no page named, a page past the end, words on their page) stands.
    const result = results[i] ?? (await checkUnlessPageNotRead(context, records[i]));
    out.push(
      result && !(options.ocr && wantsOcr(options.ocr, result))
        ? result
        : cutByDeadline(result ?? undecided(records[i]), cut),
    );
  }
  return { document: { sha256: context.sha256, pages: context.pageCount }, results: out };
}

function ocrOptions(doc: OpenedDocument, options: VerifyOptions): QuotationOcrOptions {
  return {
    mode: options.ocr as OcrMode,
    doc,
    timeoutMs: options.timeoutMs ?? DEFAULT_OCR_TIMEOUT_MS,
    ...(options.password !== undefined ? { password: options.password } : {}),
    ...(options.ocrEngine !== undefined ? { engine: { engine: options.ocrEngine } } : {}),
  };
}
