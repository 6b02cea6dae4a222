/**
 * Opening a document: read the bytes once, hash them, then take each page from the extraction
 * cache or extract it in a worker thread under a deadline.
 */
import { CiteproofError } from "../errors.js";
import type { PdfBytes } from "../source/file.js";
import type { ExtractionCache } from "./cache.js";
import { DEFAULT_TIMEOUT_MS } from "./deadline-default.js";
import { extractInWorker, type PageSink } from "./extract-pages.js";
import { resolveJobs } from "./jobs.js";
import { EXTRACTOR_VERSION, type PageGeometry, type PageText } from "./model.js";
import { documentCache, pdfSource } from "./pdf-bytes.js";

export { DEFAULT_TIMEOUT_MS, documentCache, pdfSource };

/** Pages extracted since the last report (one at a time), and the document's page count when known. */
export interface ReadProgress {
  pages: number;
  of?: number;
}

export interface OpenOptions {
  /** Cache root; defaults to $CITEPROOF_CACHE_DIR or the user's cache directory. */
  cacheDir?: string;
  /** Neither read nor write the cache (also the case whenever a password is given). */
  noCache?: boolean;
  /** Deadline for extraction in the worker, in milliseconds. */
  timeoutMs?: number;
  password?: string;
  maxBytes?: number;
  /** 1-based pages to read; all pages when omitted. Pages beyond the count are ignored. */
  pages?: number[];
  /** Also hold the character geometry of the pages read. */
  withGeometry?: boolean;
  /**
   * Write the geometry of freshly extracted pages to the cache (default true). A caller that uses
   * the geometry once and caches what it derives (the anchors) can skip it: geometry is the bulk of
   * the cache.
   */
  cacheGeometry?: boolean;
  /**
   * Engine workers a long extraction may be split over (1 to 16); default $CITEPROOF_JOBS, else the
   * cores, at most 4. Below a few hundred pages one worker does it all.
   */
  jobs?: number;
  /**
   * Called with each page's text as it is extracted (not for pages read from the cache), in the order
   * pages come in (page order within each worker's range).
   */
  onPageText?: (text: PageText) => void;
  /**
   * Told, as each page is extracted, how many pages this process has extracted for the call so far
   * and the document's page count once known: what a progress line shows. Nothing is decided by it.
   */
  onProgress?: (progress: ReadProgress) => void;
  /** Called with the page count once the document is open for an extraction, before any onPageText. */
  onOpened?: (pageCount: number) => void;
  /**
   * Hold the extracted pages in the result (default true). With false and noCache, a page is only
   * given to onPageText, so a caller that stores each page itself never holds every page.
   */
  holdPages?: boolean;
}

export interface OpenedDocument {
  sha256: string;
  pageCount: number;
  bytes: number;
  extractorVersion: string;
  /** Indexed by page - 1; undefined for pages not asked for. */
  pages: (PageText | undefined)[];
  /** Geometry for the pages read, when asked for. */
  geometry: Map<number, PageGeometry>;
  /** How many pages were extracted now rather than read from the cache. */
  extractedPages: number;
  /** The cache this document uses, or undefined with noCache. */
  cache: ExtractionCache | undefined;
  /** The bytes that were hashed and extracted: one snapshot for everything done with this document. */
  source: PdfBytes;
}

/** Opens a PDF from a path (or already-read bytes) and returns its text layer. */
export async function openDocument(
  input: string | PdfBytes,
  options: OpenOptions = {},
): Promise<OpenedDocument> {
  const source = await pdfSource(input, options);
  const cache = documentCache(source.sha256, options);
  const wanted = options.pages ? [...new Set(options.pages)].sort((a, b) => a - b) : undefined;

  let pageCount = cache?.readDoc()?.pageCount;
  const pages: (PageText | undefined)[] = [];
  const geometry = new Map<number, PageGeometry>();
  const missing: number[] = [];
  if (pageCount !== undefined && cache) {
    // Read whole, the document text file is read at once rather than a page at a time.
    if (!wanted) cache.readDocumentText();
    for (const page of wanted ?? range(pageCount)) {
      if (page < 1 || page > pageCount) continue;
      const text = cache.readPageText(page);
      const geom = text && options.withGeometry ? cache.readPageGeometry(page) : undefined;
      if (!text || (options.withGeometry && !geom)) {
        missing.push(page);
        continue;
      }
      pages[page - 1] = text;
      if (geom) geometry.set(page, geom);
    }
  }

  let extractedPages = 0;
  if (pageCount === undefined || missing.length > 0) {
    const request = {
      source,
      password: options.password,
      pages: pageCount === undefined ? wanted : missing,
      // Geometry is extracted only when asked for: a text check never pays for it, and a later
      // check that needs it extracts (and caches) just the pages it reads.
      withGeometry: options.withGeometry === true,
    };
    // A document read whole stores its text layer as one file once every page is in.
    const whole = wanted === undefined;
    // Pages read one at a time are stored once the read ends: as one file when they turn out to be
    // every page, else a file each (also when the read fails part way, so the next run keeps them).
    const fresh: PageText[] = [];
    let openedCount: number | undefined;
    const onPage: PageSink = (got) => {
      const text = "failed" in got ? unreadablePage(got.failed, got.message) : got.text;
      const geom = "failed" in got ? undefined : got.geometry;
      if (options.holdPages !== false) pages[text.page - 1] = text;
      if (options.withGeometry) geometry.set(text.page, geom ?? emptyGeometry(text.page));
      extractedPages++;
      options.onPageText?.(text);
      options.onProgress?.({ pages: 1, of: pageCount ?? openedCount });
      if (!cache || text.extractionError) return;
      if (geom && options.cacheGeometry !== false) writeCacheQuietly(() => cache.writePageGeometry(geom));
      if (!whole) fresh.push(text);
    };
    const storeEach = () => {
      if (cache) for (const text of fresh) writeCacheQuietly(() => cache.writePageText(text));
    };
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let result: Awaited<ReturnType<typeof extractInWorker>>;
    try {
      result = await extractInWorker(request, timeoutMs, onPage, resolveJobs(options.jobs), (count) => {
        openedCount = count;
        options.onOpened?.(count);
      });
    } catch (error) {
      storeEach();
      throw error;
    }
    pageCount = result.pageCount;
    pages.length = pageCount;
    // A read of pages that turn out to be every page (a short document) stores the text as one file.
    const everyPage = !whole && holdsEveryPage(pages, pageCount);
    let storedWhole = false;
    if (cache && everyPage && cache.readDocumentText() === undefined) {
      const all = Array.from(pages) as PageText[];
      if (all.every((page) => !page.extractionError)) {
        writeCacheQuietly(() => cache.writeDocumentText(all));
        storedWhole = cache.readDocumentText() !== undefined;
      }
    }
    if (!storedWhole) storeEach();
    if (cache && whole && cache.readDocumentText() === undefined) {
      const all = Array.from(pages);
      if (all.every((page) => page !== undefined && !page.extractionError))
        writeCacheQuietly(() => cache.writeDocumentText(all as PageText[]));
      // A page that could not be read is left out, so a later run tries it again.
      else
        for (const page of all)
          if (page && !page.extractionError) writeCacheQuietly(() => cache.writePageText(page));
    }
    if (cache) writeCacheQuietly(() => cache.writeDoc(result.pageCount));
  }
  pages.length = pageCount;
  return {
    sha256: source.sha256,
    pageCount,
    bytes: source.bytes.byteLength,
    extractorVersion: EXTRACTOR_VERSION,
    pages,
    geometry,
    extractedPages,
    cache,
    source,
  };
}

/** Reads the geometry of one page from the document, its cache, or a fresh extraction. */
export async function pageGeometry(
  doc: OpenedDocument,
  page: number,
  options: Omit<OpenOptions, "pages" | "withGeometry"> = {},
): Promise<PageGeometry | undefined> {
  const held = doc.geometry.get(page);
  if (held) return held;
  const cached = doc.cache?.readPageGeometry(page);
  if (cached) {
    doc.geometry.set(page, cached);
    return cached;
  }
  const again = await openDocument(doc.source, { ...options, pages: [page], withGeometry: true });
  const geom = again.geometry.get(page);
  if (geom) doc.geometry.set(page, geom);
  return geom;
}

function writeCacheQuietly(write: () => void): void {
  try {
    write();
  } catch {
    // An unwritable cache slows the next run; it never changes a result.
  }
}

/** Whether every page is held (a loop: `every` skips the holes of a sparse array). */
export function holdsEveryPage(pages: readonly (PageText | undefined)[], pageCount: number): boolean {
  if (pages.length !== pageCount) return false;
  for (let i = 0; i < pageCount; i++) if (pages[i] === undefined) return false;
  return true;
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1);
}

/** The text layer of a page that could not be read: empty, with the reason. */
export function unreadablePage(page: number, message: string): PageText {
  const box = { left: 0, bottom: 0, right: 0, top: 0 };
  return {
    page,
    mediaBox: box,
    cropBox: box,
    rotation: 0,
    width: 0,
    height: 0,
    text: "",
    lines: [],
    lineEndHyphensUtf16: [],
    graphics: [],
    graphicsDropped: 0,
    fonts: [],
    hasTextLayer: false,
    extractionError: message,
  };
}

function emptyGeometry(page: number): PageGeometry {
  return {
    page,
    glyphBoxes: new Float32Array(0),
    looseBoxes: new Float32Array(0),
    origins: new Float32Array(0),
    fontSizes: new Float32Array(0),
    fontIndex: new Int16Array(0),
    flags: new Uint8Array(0),
  };
}

export function assertPageInRange(doc: { pageCount: number }, page: number): void {
  if (!Number.isInteger(page) || page < 1 || page > doc.pageCount) {
    throw new CiteproofError(
      "PAGE_OUT_OF_RANGE",
      `page ${page} does not exist (the PDF has ${doc.pageCount} pages)`,
    );
  }
}
