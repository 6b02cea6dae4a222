/**
 * Where a span of a PDF snapshot lies on the page: the physical page from the snapshot's page map,
 * and the glyph boxes of its characters, merged per text line, from the document model. Boxes come
 * only from an extraction whose page text is identical to the snapshot's; otherwise none are given
 * (with the reason), never approximate ones.
 */
import { defaultCacheDir, ExtractionCache } from "../document/cache.js";
import type { PageGeometry, PageText } from "../document/model.js";
import { type OpenedDocument, openDocument, pageGeometry } from "../document/open.js";
import { readPdfFile } from "../source/file.js";
import type { CodePointIndex } from "../util/codepoints.js";
import { type AssetChecker, libraryRootGuard } from "./fresh.js";
import type { Snapshot } from "./snapshot.js";

/** Separator placed between pages when a PDF's pages are concatenated into one snapshot text. */
export const PAGE_SEPARATOR = "\f";

export interface PageBox {
  page: number;
  left: number;
  bottom: number;
  right: number;
  top: number;
}

export interface SpanPlace {
  /** Physical page (1-based) where the span starts; null for a snapshot without a page map. */
  page: number | null;
  /** Every page the span touches, when it crosses a page break. */
  pages: number[] | null;
  /** Glyph boxes, one per text line touched, in PDF default user space; null when not derivable. */
  boxes: PageBox[] | null;
  /** Why boxes is null, for a PDF snapshot. */
  boxes_note?: string;
}

interface PageSource {
  text(page: number): PageText | undefined;
  geometry(page: number): Promise<PageGeometry | undefined>;
}

export interface LocateOptions {
  cacheDir?: string;
  timeoutMs?: number;
}

export class SpanLocator {
  private readonly sources = new Map<string, Promise<PageSource | string>>();

  constructor(
    private readonly assets: AssetChecker,
    private readonly options: LocateOptions = {},
  ) {}

  /** The page(s) a span lies on, from the page map alone. */
  pagesOf(snapshot: Snapshot, startCp: number, endCp: number): number[] | null {
    const map = snapshot.document?.pages;
    if (!map || map.length === 0) return null;
    const first = pageAt(map, startCp);
    const last = pageAt(map, Math.max(startCp, endCp - 1));
    const out: number[] = [];
    for (let i = first; i <= last; i++) out.push(map[i].page);
    return out;
  }

  async locate(
    snapshot: Snapshot,
    index: CodePointIndex,
    startCp: number,
    endCp: number,
  ): Promise<SpanPlace> {
    const pages = this.pagesOf(snapshot, startCp, endCp);
    if (!pages || !snapshot.document) return { page: null, pages: null, boxes: null };
    const place: SpanPlace = { page: pages[0], pages: pages.length > 1 ? pages : null, boxes: null };
    const source = await this.pageSource(snapshot);
    if (typeof source === "string") return { ...place, boxes_note: source };
    const map = snapshot.document.pages;
    const boxes: PageBox[] = [];
    for (let i = pageAt(map, startCp); i < map.length && map[i].start < Math.max(endCp, startCp + 1); i++) {
      const pageStart = map[i].start;
      const pageEnd = i + 1 < map.length ? map[i + 1].start - 1 : index.length;
      const pageNo = map[i].page;
      const text = source.text(pageNo);
      if (!text || text.text !== index.slice(pageStart, pageEnd)) {
        return {
          ...place,
          boxes_note: `page ${pageNo} of the PDF no longer extracts to the snapshot's text`,
        };
      }
      const geometry = await source.geometry(pageNo);
      if (!geometry) return { ...place, boxes_note: `no glyph geometry for page ${pageNo}` };
      const base = index.toUtf16(pageStart);
      const from = index.toUtf16(Math.max(startCp, pageStart)) - base;
      const to = index.toUtf16(Math.min(endCp, pageEnd)) - base;
      boxes.push(...lineBoxes(text, geometry, from, to));
    }
    return { ...place, boxes };
  }

  private pageSource(snapshot: Snapshot): Promise<PageSource | string> {
    let held = this.sources.get(snapshot.source_id);
    if (!held) {
      held = this.openSource(snapshot);
      this.sources.set(snapshot.source_id, held);
    }
    return held;
  }

  private async openSource(snapshot: Snapshot): Promise<PageSource | string> {
    const document = snapshot.document!;
    if (snapshot.asset) {
      const check = this.assets.check(snapshot.asset);
      const path = this.assets.resolvePath(snapshot.asset);
      if (!check.ok || !path) return check.ok ? "the PDF's path leaves the library root" : check.message;
      let doc: OpenedDocument;
      try {
        const bytes = await readPdfFile(path, undefined, libraryRootGuard(this.assets.run.libraryRoot));
        doc = await openDocument(bytes, {
          cacheDir: this.options.cacheDir,
          timeoutMs: this.options.timeoutMs,
        });
      } catch (error) {
        return `the PDF could not be opened (${(error as Error).message})`;
      }
      if (doc.sha256 !== document.sha256) return "the PDF file is not the one the text was extracted from";
      return {
        text: (page) => doc.pages[page - 1],
        geometry: (page) => pageGeometry(doc, page, { cacheDir: this.options.cacheDir }),
      };
    }
    // A retrieved PDF is not kept; its geometry lives on only in the extraction cache.
    const cache = new ExtractionCache(this.options.cacheDir ?? defaultCacheDir(), document.sha256);
    if (!cache.readDoc()) return "the retrieved PDF is no longer in the extraction cache";
    return {
      text: (page) => cache.readPageText(page),
      geometry: async (page) => cache.readPageGeometry(page),
    };
  }
}

function pageAt(map: { start: number }[], cp: number): number {
  let lo = 0;
  let hi = map.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (map[mid].start <= cp) lo = mid + 1;
    else hi = mid;
  }
  return Math.max(0, lo - 1);
}

/** Unions the glyph boxes of UTF-16 units [from, to) of a page, one box per text line. */
function lineBoxes(text: PageText, geometry: PageGeometry, from: number, to: number): PageBox[] {
  const out: PageBox[] = [];
  const boxes = geometry.glyphBoxes;
  for (const line of text.lines) {
    const a = Math.max(from, line.startUtf16);
    const b = Math.min(to, line.endUtf16);
    if (a >= b) continue;
    let left = Number.POSITIVE_INFINITY;
    let bottom = Number.POSITIVE_INFINITY;
    let right = Number.NEGATIVE_INFINITY;
    let top = Number.NEGATIVE_INFINITY;
    for (let u = a; u < b; u++) {
      const l = boxes[u * 4];
      if (!Number.isFinite(l)) continue;
      left = Math.min(left, l);
      bottom = Math.min(bottom, boxes[u * 4 + 1]);
      right = Math.max(right, boxes[u * 4 + 2]);
      top = Math.max(top, boxes[u * 4 + 3]);
    }
    if (Number.isFinite(left))
      out.push({
        page: text.page,
        left: round(left),
        bottom: round(bottom),
        right: round(right),
        top: round(top),
      });
  }
  return out;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
