/**
 * Finding the words before citing them: every occurrence of a phrase in the document, folded as the
 * quotation check folds it (ellipses allowed), each with what a citation needs: the physical page and
 * its printed label, the matched original text, its UTF-16 offsets in the page text, and the boxes of
 * the lines it stands on (default user space), ready for a `verify` quotation or a `cite-check` box.
 */
import { unionOfBoxes } from "../document/box-union.js";
import type { Box } from "../document/model.js";
import { type OpenOptions, openDocument } from "../document/open.js";
import { CiteproofError } from "../errors.js";
import type { PdfBytes } from "../source/file.js";
import { ellipsisParts, everyPartHasWords } from "../text/ellipsis.js";
import { fold } from "../text/fold.js";
import type { FoldedPages } from "../text/folded-pages.js";
import { findAcrossBreak } from "../text/page-break.js";
import type { Region } from "../text/page-regions.js";
import { findElidedInRange, MAX_GAP_UTF16 } from "./quotation-elided.js";
import { checkContext } from "./verify.js";

/** Occurrences listed; the rest are counted. */
export const MAX_LOCATED = 20;

export interface LocatedPart {
  page: number;
  /** UTF-16 offsets in the page text. */
  startUtf16: number;
  endUtf16: number;
  /** The page's own characters there. */
  text: string;
  /** The boxes of the lines the part stands on, in default user space. */
  lineBoxes: Box[];
  /** Where on the page the part stands: body, caption, footnote, running-head, references, table, margin. */
  region: Region;
}

export interface Occurrence {
  /** Physical page (the first, when the words run onto the next). */
  page: number;
  printedPage: string | null;
  /** Set when the words run across a page break. */
  endPage?: number;
  /** One part, or one per page across a break, or one per ellipsis part. */
  parts: LocatedPart[];
  /** The union of the line boxes of the parts on `page`. */
  box: Box;
}

export interface LocateReport {
  document: { sha256: string; pages: number };
  text: string;
  /** Every occurrence, up to MAX_LOCATED, in page order. */
  occurrences: Occurrence[];
  /** How many there are in all. */
  count: number;
}

export interface LocateContext {
  sha256: string;
  pageCount: number;
  pages: FoldedPages;
}

/** Rejects what cannot be looked for, naming the field. */
export function validateLocateText(text: unknown, field = "text"): string {
  if (typeof text !== "string") throw new CiteproofError("USAGE", `${field} must be a string`);
  if (text.trim().length === 0)
    throw new CiteproofError("USAGE", `${field} is empty: give the words to find`);
  const parts = ellipsisParts(text);
  if (parts && !everyPartHasWords(parts))
    throw new CiteproofError("USAGE", `${field} has an ellipsis with no words on one side of it`);
  return text;
}

export function locateWords(context: LocateContext, text: string): LocateReport {
  validateLocateText(text);
  const { pages } = context;
  const labels = pages.labels;
  const parts = ellipsisParts(text);
  const found: Omit<Occurrence, "printedPage" | "box">[] = [];
  if (parts) {
    const longest = parts
      .map((p) => fold(p, { trim: true }).text)
      .reduce((a, b) => (b.length > a.length ? b : a));
    for (const page of pages.candidatePages(longest)) {
      const chain = findElidedInRange(pages, page, undefined, parts);
      if (chain && chain.widestGap <= MAX_GAP_UTF16)
        found.push({ page, parts: chain.parts.map((p) => located(pages, p.page, p.startUtf16, p.endUtf16)) });
    }
  } else {
    const needle = fold(text, { trim: true }).text;
    for (const page of pages.candidatePages(needle))
      for (const m of pages.findOnPage(page, needle, Number.MAX_SAFE_INTEGER))
        found.push({ page, parts: [located(pages, page, m.startUtf16, m.endUtf16)] });
    for (const page of acrossCandidates(pages, needle)) {
      const across = findAcrossBreak(pages, page, needle);
      if (across)
        found.push({
          page,
          endPage: page + 1,
          parts: across.parts.map((p) => located(pages, p.page, p.startUtf16, p.endUtf16)),
        });
    }
    found.sort((a, b) => a.page - b.page || a.parts[0].startUtf16 - b.parts[0].startUtf16);
  }
  return {
    document: { sha256: context.sha256, pages: context.pageCount },
    text,
    occurrences: found.slice(0, MAX_LOCATED).map((o) => ({
      page: o.page,
      printedPage: labels.of(o.page)?.label ?? null,
      ...(o.endPage !== undefined ? { endPage: o.endPage } : {}),
      parts: o.parts,
      box: union(o.parts.filter((p) => p.page === o.page).flatMap((p) => p.lineBoxes)),
    })),
    count: found.length,
  };
}

/**
 * Pages whose break the words may run across: the page may hold the first two words and the next
 * page the last two (the token index says which; a needle of one word crosses no break).
 */
function acrossCandidates(pages: FoldedPages, needle: string): number[] {
  const words = needle.split(" ");
  if (words.length < 2) return [];
  const head = new Set(pages.candidatePages(words.slice(0, 2).join(" ")));
  const tail = pages.candidatePages(words.slice(-2).join(" "));
  return tail.map((p) => p - 1).filter((p) => p >= 1 && head.has(p));
}

function located(pages: FoldedPages, page: number, startUtf16: number, endUtf16: number): LocatedPart {
  const text = pages.pages.get(page);
  const lineBoxes = (text?.lines ?? [])
    .filter((l) => l.startUtf16 < endUtf16 && l.endUtf16 > startUtf16)
    .map((l) => ({ ...l.box }));
  return {
    page,
    startUtf16,
    endUtf16,
    text: text?.text.slice(startUtf16, endUtf16) ?? "",
    lineBoxes,
    region: pages.regions.regionAt(page, startUtf16),
  };
}

function union(boxes: Box[]): Box {
  return boxes.length === 0 ? { left: 0, bottom: 0, right: 0, top: 0 } : unionOfBoxes(boxes);
}

/** The human listing: one line per occurrence, then the count. */
export function formatLocateReport(report: LocateReport, header: string): string {
  const lines = [header];
  const box = (b: Box) => [b.left, b.bottom, b.right, b.top].map((v) => v.toFixed(1)).join(",");
  for (const o of report.occurrences) {
    const printed = o.printedPage !== null ? ` (printed ${o.printedPage})` : "";
    const pages = o.endPage !== undefined ? `pages ${o.page}-${o.endPage}` : `page ${o.page}`;
    const words = o.parts.map((p) => p.text.replace(/\s+/g, " ")).join(" … ");
    const offsets = o.parts.map((p) => `${p.startUtf16}-${p.endUtf16}`).join(", ");
    const regions = [...new Set(o.parts.map((p) => p.region))].filter((r) => r !== "body");
    const where = regions.length > 0 ? `  in the ${regions.join(", ")}` : "";
    lines.push(`  ${pages}${printed}${where}  box ${box(o.box)}  utf16 ${offsets}  "${words}"`);
  }
  lines.push(countLine(report.count, report.occurrences.length));
  return `${lines.join("\n")}\n`;
}

/** `not found`, or how many occurrences there are and how many are listed. */
export function countLine(count: number, listed: number): string {
  if (count === 0) return "not found";
  return `${count} occurrence(s)${count > listed ? `; the first ${listed} listed` : ""}`;
}

/** Opens a PDF (from the extraction cache when it can) and locates the words in it. */
export async function locatePdf(
  input: string | PdfBytes,
  text: string,
  options: OpenOptions = {},
): Promise<LocateReport> {
  validateLocateText(text);
  return locateWords(checkContext(await openDocument(input, options)), text);
}
