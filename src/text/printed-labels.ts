/**
 * The label printed on each page, as a reader would cite it: the PDF's own /PageLabels when the
 * file declares them, else the folio printed in the running head or foot when consecutive pages
 * agree on one sequence (arabic or roman). A page gets no label when neither source is sure.
 * Pages are physical pages (1-based); labels never change a verdict, they only explain one.
 */
import type { LineInfo, PageText } from "../document/model.js";
import { asPageSource, type PageSource } from "../document/page-source.js";
import { type DerivedRecords, recordName } from "./derived-records.js";
import type { EveryPageReadable } from "./every-page.js";

export const PRINTED_LABEL_SOURCES = ["page-labels", "running-folio"] as const;
/** `page-labels`: the file's /PageLabels; `running-folio`: a folio read from the running heads and feet. */
export type PrintedLabelSource = (typeof PRINTED_LABEL_SOURCES)[number];

export interface PrintedLabel {
  label: string;
  source: PrintedLabelSource;
}

/** Share of the page height, from its top or bottom edge, in which a running head or foot stands. */
const MARGIN_ZONE = 0.2;
/** Lines looked at in each zone: the outermost ones. */
const LINES_PER_ZONE = 2;
/** Pages that must print the same sequence, near a page, before it is believed there. */
const MIN_AGREEING = 3;
/** How far from a page (in pages, each way) the folios that decide its label are read. */
const FOLIO_WINDOW = 4;
/** How far from a page the file's labels are compared with the folios printed. */
const CONTRADICTION_WINDOW = 2;
/**
 * The pages around a page that deciding its label reads, each way: a check that names a page holds
 * these too, so its printed label is the one the whole document gives.
 */
export const LABEL_READ_RADIUS = FOLIO_WINDOW + CONTRADICTION_WINDOW;

type Numbering = "arabic" | "roman" | "ROMAN";

interface Folio {
  numbering: Numbering;
  value: number;
}

/**
 * The printed label of each page, decided from the pages near it only (so a page's label never
 * needs the whole document) and kept once decided. A page's folio is believed when at least
 * MIN_AGREEING pages within FOLIO_WINDOW print one sequence (a numbering and an offset from the
 * physical page) and the page prints it too or lies between pages that do; the sequence most pages
 * print wins, a tie is unsure. The file's /PageLabels are believed unless a folio believed within
 * CONTRADICTION_WINDOW contradicts them (a cover page put before the article, default labels 1, 2, 3
 * on pages printed 177 on): then the folio is, or nothing.
 */
export class PrintedLabels {
  private readonly labels = new Map<number, PrintedLabel | null>();
  private readonly folios = new Map<number, PrintedLabel | null>();
  private readonly offered = new Map<number, Folio[]>();
  private byLabel: Map<string, number[]> | undefined;
  /** Every page's label as a record read back (index page - 1): undefined before looking, null when none. */
  private stored: (PrintedLabel | null)[] | null | undefined;

  /** `records` keeps every page's label between runs once all are decided. */
  private readonly pages: PageSource;

  constructor(
    pages: PageSource | readonly (PageText | undefined)[],
    private readonly records?: DerivedRecords,
    private readonly everyPage?: EveryPageReadable,
  ) {
    this.pages = asPageSource(pages);
  }

  /** Forgets the labels decided from neighbouring pages (after pages not held were read as absent). */
  forgetNeighbourhoods(): void {
    this.labels.clear();
    this.folios.clear();
    this.offered.clear();
  }

  /** The printed label of a physical page, or undefined when none is known. */
  of(page: number): PrintedLabel | undefined {
    if (page < 1 || page > this.pages.count) return undefined;
    const stored = this.storedLabels();
    if (stored) return stored[page - 1] ?? undefined;
    let label = this.labels.get(page);
    if (label === undefined) {
      label = this.decide(page);
      this.labels.set(page, label);
    }
    return label ?? undefined;
  }

  /** The physical pages printed with this label (compared without case), in page order; reads every page. */
  pagesPrinted(label: string | number): number[] {
    if (!this.byLabel) {
      if (this.everyPage && !this.everyPage.readable()) {
        this.everyPage.wanted();
        return [];
      }
      const byLabel = new Map<string, number[]>();
      const all: (PrintedLabel | null)[] = [];
      for (let page = 1; page <= this.pages.count; page++) {
        const printed = this.of(page);
        all.push(printed ?? null);
        if (!printed) continue;
        const key = printed.label.toLowerCase();
        const list = byLabel.get(key);
        if (list) list.push(page);
        else byLabel.set(key, [page]);
      }
      this.byLabel = byLabel;
      const name = this.recordName();
      if (name && !this.stored) this.records?.write(name, toStored(all));
    }
    return this.byLabel.get(String(label).toLowerCase()) ?? [];
  }

  private recordName(): string | undefined {
    return this.records ? recordName("printed-labels") : undefined;
  }

  private storedLabels(): (PrintedLabel | null)[] | null {
    if (this.stored === undefined) {
      const name = this.recordName();
      this.stored = (name && storedLabels(this.records?.read(name), this.pages.count)) || null;
    }
    return this.stored;
  }

  /** The label only where it tells the reader something: it differs from the physical page number. */
  informative(page: number): string | undefined {
    const label = this.of(page)?.label;
    return label !== undefined && label !== String(page) ? label : undefined;
  }

  private decide(page: number): PrintedLabel | null {
    const declared = this.pages.get(page)?.pageLabel;
    const folio = this.folio(page);
    if (declared === undefined) return folio;
    for (let q = page - CONTRADICTION_WINDOW; q <= page + CONTRADICTION_WINDOW; q++) {
      if (q < 1 || q > this.pages.count) continue;
      const printed = this.folio(q)?.label;
      const claimed = this.pages.get(q)?.pageLabel;
      if (printed !== undefined && claimed !== undefined && printed.toLowerCase() !== claimed.toLowerCase())
        return folio;
    }
    return { label: declared, source: "page-labels" };
  }

  private candidates(page: number): Folio[] {
    let list = this.offered.get(page);
    if (!list) {
      const text = this.pages.get(page);
      list = text ? folioCandidates(text) : [];
      this.offered.set(page, list);
    }
    return list;
  }

  private folio(page: number): PrintedLabel | null {
    let held = this.folios.get(page);
    if (held !== undefined) return held;
    const support = new Map<string, { numbering: Numbering; offset: number; pages: number[] }>();
    const from = Math.max(1, page - FOLIO_WINDOW);
    const to = Math.min(this.pages.count, page + FOLIO_WINDOW);
    for (let q = from; q <= to; q++) {
      for (const f of this.candidates(q)) {
        const key = `${f.numbering}:${f.value - q}`;
        const entry = support.get(key) ?? { numbering: f.numbering, offset: f.value - q, pages: [] };
        if (entry.pages[entry.pages.length - 1] !== q) entry.pages.push(q);
        support.set(key, entry);
      }
    }
    let best: { numbering: Numbering; offset: number; count: number } | undefined;
    let tied = false;
    for (const { numbering, offset, pages } of support.values()) {
      if (pages.length < MIN_AGREEING) continue;
      const covers = pages.includes(page) || (pages[0] < page && pages[pages.length - 1] > page);
      if (!covers) continue;
      if (!best || pages.length > best.count) {
        best = { numbering, offset, count: pages.length };
        tied = false;
      } else if (pages.length === best.count) tied = true;
    }
    const label = best && !tied ? formatFolio(best.numbering, page + best.offset) : undefined;
    held = label === undefined ? null : { label, source: "running-folio" };
    this.folios.set(page, held);
    return held;
  }
}

/** Labels as kept between runs: per page its label ("" when none) and its source's index in PRINTED_LABEL_SOURCES (-1 when none). */
interface StoredLabels {
  labels: string[];
  sources: Int8Array;
}

function toStored(all: readonly (PrintedLabel | null)[]): StoredLabels {
  return {
    labels: all.map((l) => l?.label ?? ""),
    sources: Int8Array.from(all, (l) => (l ? PRINTED_LABEL_SOURCES.indexOf(l.source) : -1)),
  };
}

/** A label longer than any a page prints: a stored one past it is refused as damage. */
const MAX_LABEL_UTF16 = 256;

/** Stored labels read back, every field checked; undefined when any is wrong. */
function storedLabels(value: unknown, pageCount: number): (PrintedLabel | null)[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { labels, sources } = value as Partial<StoredLabels>;
  if (!Array.isArray(labels) || !(sources instanceof Int8Array)) return undefined;
  if (labels.length !== pageCount || sources.length !== pageCount) return undefined;
  const out: (PrintedLabel | null)[] = [];
  for (let i = 0; i < pageCount; i++) {
    const label = labels[i];
    const source = PRINTED_LABEL_SOURCES[sources[i]];
    if (typeof label !== "string" || label.length > MAX_LABEL_UTF16) return undefined;
    if (source === undefined) {
      if (sources[i] !== -1 || label !== "") return undefined;
      out.push(null);
    } else out.push({ label, source });
  }
  return out;
}

const memo = new WeakMap<readonly (PageText | undefined)[], PrintedLabels>();

/** The printed labels of a document's pages, one decider per pages array. */
export function printedLabelsOf(pages: readonly (PageText | undefined)[]): PrintedLabels {
  let labels = memo.get(pages);
  if (!labels) {
    labels = new PrintedLabels(pages);
    memo.set(pages, labels);
  }
  return labels;
}

/** The numbers a page's outermost lines offer as its folio. */
function folioCandidates(page: PageText): Folio[] {
  if (page.rotation !== 0 || !page.hasTextLayer) return [];
  const box = page.cropBox;
  const height = box.top - box.bottom;
  if (height <= 0) return [];
  const lines = page.lines.filter((l) => /\S/.test(page.text.slice(l.startUtf16, l.endUtf16)));
  const byTop = [...lines].sort((a, b) => b.box.top - a.box.top);
  const heads = byTop.slice(0, LINES_PER_ZONE).filter((l) => l.box.bottom >= box.top - height * MARGIN_ZONE);
  const feet = byTop
    .slice(-LINES_PER_ZONE)
    .filter((l) => l.box.top <= box.bottom + height * MARGIN_ZONE && !heads.includes(l));
  const out: Folio[] = [];
  for (const line of heads) out.push(...lineFolios(page, line, true));
  for (const line of feet) out.push(...lineFolios(page, line, false));
  return out;
}

const DECORATION = /^[\s\-\u2010-\u2015|[\]()·•]+|[\s\-\u2010-\u2015|[\]()·•]+$/g;

/**
 * A line that is a folio alone ("12", "- 12 -", "Page 12", "12 of 40"), or, in a running head, a line
 * that begins or ends with one ("218 J. Smith", "Results 219"). A foot line's first number is not
 * offered: it is as likely a footnote's mark.
 */
function lineFolios(page: PageText, line: LineInfo, isHead: boolean): Folio[] {
  const words = page.text
    .slice(line.startUtf16, line.endUtf16)
    .split(/\s+/)
    .map((w) => w.replace(DECORATION, ""))
    .filter((w) => w.length > 0);
  if (words.length === 0) return [];
  const alone =
    words.length === 1
      ? words[0]
      : words.length === 2 && /^(page|p\.?)$/i.test(words[0])
        ? words[1]
        : words.length === 3 && /^(of|\/)$/i.test(words[1])
          ? words[0]
          : undefined;
  const picked = alone !== undefined ? [alone] : isHead ? [words[0], words[words.length - 1]] : [];
  const out: Folio[] = [];
  for (const word of picked) {
    const folio = parseFolio(word);
    if (folio) out.push(folio);
  }
  return out;
}

function parseFolio(word: string): Folio | undefined {
  if (/^\d{1,4}$/.test(word)) {
    const value = Number(word);
    return value > 0 ? { numbering: "arabic", value } : undefined;
  }
  if (/^[ivxlc]+$/.test(word) || /^[IVXLC]+$/.test(word)) {
    const value = romanValue(word.toLowerCase());
    if (value === undefined) return undefined;
    return { numbering: word === word.toLowerCase() ? "roman" : "ROMAN", value };
  }
  return undefined;
}

const ROMAN_DIGITS: [string, number][] = [
  ["c", 100],
  ["xc", 90],
  ["l", 50],
  ["xl", 40],
  ["x", 10],
  ["ix", 9],
  ["v", 5],
  ["iv", 4],
  ["i", 1],
];

/** The value of a roman numeral in its canonical spelling; undefined for any other spelling. */
function romanValue(word: string): number | undefined {
  let value = 0;
  let rest = word;
  for (const [digits, amount] of ROMAN_DIGITS) {
    while (rest.startsWith(digits)) {
      value += amount;
      rest = rest.slice(digits.length);
    }
  }
  return rest.length === 0 && toRoman(value) === word ? value : undefined;
}

function toRoman(value: number): string {
  let out = "";
  let rest = value;
  for (const [digits, amount] of ROMAN_DIGITS) {
    while (rest >= amount) {
      out += digits;
      rest -= amount;
    }
  }
  return out;
}

function formatFolio(numbering: Numbering, value: number): string | undefined {
  if (value < 1) return undefined;
  if (numbering === "arabic") return String(value);
  if (value >= 400) return undefined;
  const roman = toRoman(value);
  return numbering === "roman" ? roman : roman.toUpperCase();
}
