/**
 * The reading plan of `verifyPdf` (cited-pages-first.ts), loaded once it knows it must check something:
 * each record is checked against a context that reads only the pages read so far (document-handle.ts),
 * and the rest of the document is read only for the records whose check needs pages not read
 * (check-within.ts). A check that reads only pages held gives the result the whole document gives. The first read's records are checked while its pages arrive: each once the
 * pages around its cited page are in, so the checks run while the engine reads the pages after.
 */
import { checkWithin, resultOf } from "../checks/check-within.js";
import type { OcrMode } from "../checks/cite-check/verdicts.js";
import { cutByDeadline, isDeadline, undecided } from "../checks/deadline-cut.js";
import type { EvidenceRecord } from "../checks/evidence-record.js";
import {
  applyOcr,
  DEFAULT_OCR_TIMEOUT_MS,
  type QuotationOcrOptions,
  wantsOcr,
} from "../checks/ocr-quotations.js";
import type { CheckResult } from "../checks/result.js";
import {
  type CheckContext,
  checkContext,
  foldedPagesWith,
  type VerifyReport,
  verifyEvidence,
} from "../checks/verify.js";
import { readRestOfDocument } from "../document/complete.js";
import type { PageText } from "../document/model.js";
import { DEFAULT_TIMEOUT_MS, documentCache, type OpenedDocument, openDocument } from "../document/open.js";
import type { PdfBytes } from "../source/file.js";
import { indexTextsOf } from "../text/folded-pages.js";
import { RUNNING_HEAD_WINDOW } from "../text/page-regions.js";
import { LABEL_READ_RADIUS } from "../text/printed-labels.js";
import { TokenIndexBuilder } from "../text/token-index.js";
import type { VerifyOptions } from "./cited-pages-first.js";
import { DocumentHandle, readPages } from "./document-handle.js";
import { openForChecks } from "./open-for-checks.js";
import type { KeptResults } from "./result-cache.js";

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

/** The pages the records' checks read first. */
function citedPages(records: readonly EvidenceRecord[]): number[] {
  const pages = new Set<number>();
  for (const r of records) {
    const reach = reachOf(r);
    if (reach) for (let p = reach.first; p <= reach.last; p++) pages.add(p);
  }
  return [...pages];
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
  // The context reads the pages read so far, put into the handle as they arrive; the views folded
  // from them are kept for the run until a record needs the search over every page.
  const handle = new DocumentHandle(source.sha256);
  // That search's token index, built from the moment a record needs it (see indexPages).
  let index: TokenIndexBuilder | undefined;
  let context: CheckContext | undefined;
  const open = (pageCount: number): CheckContext => {
    handle.open(pageCount);
    return {
      sha256: source.sha256,
      pageCount,
      pages: foldedPagesWith(
        documentCache(source.sha256, options),
        handle.pages,
        (page) => index === undefined && handle.holds(page),
        {
          // The records checked while pages arrive must not build the token index from part of them,
          // nor build it again while it is being built from the pages arriving.
          readable: () => handle.readsBack || (index === undefined && handle.everyPageHeld()),
          wanted: () => handle.unheld.noteEveryPage(),
        },
      ),
    };
  };
  const check = (ctx: CheckContext, record: EvidenceRecord): CheckResult | undefined =>
    record.kind === "quotation" || record.kind === "page"
      ? resultOf(checkWithin(ctx, handle.unheld, record))
      : undefined;
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
      if (handle.holds(page) && !index.has(page)) index.add(page, fromContext.pages.indexTexts(page));
    indexedBelow = Math.max(indexedBelow, last + 1);
  };
  const onPageText = (text: PageText) => {
    handle.put(text);
    const now = due.get(text.page);
    if (!now || !context) return;
    due.delete(text.page);
    let unanswered = false;
    for (const i of now) {
      const { first } = reachOf(records[i])!;
      // A page of the reach read from the cache comes in only at the end of the read.
      let held = true;
      for (let p = first; p <= text.page && held; p++) held = handle.holds(p);
      if (held) results[i] = check(context, records[i]);
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
    const stream = readPages(source, { ...options, pages: citedPages(unknown) });
    for (;;) {
      const event = await stream.next();
      if (event.done) {
        cited = event.value;
        break;
      }
      if ("opened" in event.value) onOpened(event.value.opened);
      else onPageText(event.value.page);
    }
  } catch (error) {
    // Past the deadline with the page count known: what the pages read decided stands, the rest FLAG.
    if (!isDeadline(error)) throw error;
    const cache = documentCache(source.sha256, options);
    const count = context?.pageCount ?? cache?.readDoc()?.pageCount;
    if (count === undefined) throw error;
    context ??= open(count);
    // The pages the cache held were not streamed: they are taken from it now.
    if (cache)
      for (const page of citedPages(unknown))
        if (page <= count && !handle.holds(page)) {
          const text = cache.readPageText(page);
          if (text) handle.put(text);
        }
    return cutReport(context, handle, records, results, options);
  }
  context ??= open(cited.pageCount);
  for (let i = 0; i < cited.pageCount; i++) {
    const text = cited.pages[i];
    if (text && !handle.holds(i + 1)) handle.put(text);
  }
  // Every page read: the index begun while they arrived is finished now, before the records wait on it.
  if (index && handle.everyPageHeld()) {
    indexPages(1, cited.pageCount, context);
    context.pages.adoptIndex(index.finish());
  }
  for (let i = 0; i < records.length; i++) if (fresh[i]) results[i] ??= check(context, records[i]);
  let anyUnreadable = handle.anyUnreadable();
  if (results.some((r) => r === undefined)) {
    // The pages are held by the handle alone, so that they can be let go below.
    cited.pages.length = 0;
    // The token index the search over every page needs is built while the other pages arrive.
    indexPages(1, cited.pageCount, context);
    const building = context.pages.hasIndex ? undefined : index;
    // From here on memory holds the index and a few pages: the pages read first are stored with the
    // rest and read back like them, their views folded again when a check reaches them. (When they
    // are every page, nothing is read and they stay.)
    if (!handle.everyPageHeld()) context.pages.releaseViews();
    let rest: Awaited<ReturnType<typeof readRestOfDocument>>;
    try {
      rest = await readRestOfDocument(
        cited,
        handle.held,
        options,
        building && ((text: PageText) => building.add(text.page, indexTextsOf(text))),
      );
    } catch (error) {
      if (!isDeadline(error)) throw error;
      return cutReport(context, handle, records, results, options);
    }
    anyUnreadable = rest.anyUnreadable;
    handle.readBackWith(rest.readPage);
    if (building) context.pages.adoptIndex(building.finish());
    for (let i = 0; i < records.length; i++) results[i] ??= check(context, records[i]);
    if (results.some((r) => r === undefined)) {
      // The cache lost a page since it was stored (emptied, or damaged): every page is read again, held.
      const whole = await openDocument(source, { ...options, noCache: true });
      for (let i = 0; i < whole.pageCount; i++) {
        const text = whole.pages[i];
        if (text && !handle.holds(i + 1)) handle.put(text);
      }
      for (let i = 0; i < records.length; i++) results[i] ??= check(context, records[i]);
    }
  }
  const checked = results.map((result, i) => result ?? unfinished(records[i]));
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

/** Every page is held by now: a record still unanswered is a fault of the plan, never a verdict. */
function unfinished(record: EvidenceRecord): never {
  throw new Error(`record ${record.id ?? ""} still needs pages once every page is read`);
}
/**
 * The report once the deadline cut the extraction: the records checked on the pages read keep their
 * results; the others FLAG `deadline`, naming the pages not read. Nothing is kept in the cache (the
 * pages read are, as every extraction stores them), and OCR is not started past the deadline.
 */
async function cutReport(
  context: CheckContext,
  handle: DocumentHandle,
  records: readonly EvidenceRecord[],
  results: readonly (CheckResult | undefined)[],
  options: VerifyOptions,
): Promise<VerifyReport> {
  const cut = {
    limitMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    step: "extraction",
    pagesNotRead: handle.pagesNotRead(),
  };
  const out: CheckResult[] = [];
  for (let i = 0; i < records.length; i++) {
    // A record the pages read decide (no page named, a page past the end, words on their page) stands.
    const record = records[i];
    const result =
      results[i] ??
      (record.kind === "quotation" || record.kind === "page"
        ? resultOf(checkWithin(context, handle.unheld, record))
        : undefined);
    out.push(
      result && !(options.ocr && wantsOcr(options.ocr, result))
        ? result
        : cutByDeadline(result ?? undecided(record), cut),
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
