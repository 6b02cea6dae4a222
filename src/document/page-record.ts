/**
 * The stored (and posted) form of a page's text layer. Lines are packed into one Float64Array
 * (eight numbers a line) because copying tens of thousands of small objects between threads or
 * back from disk costs far more than one typed array; they are unpacked into LineInfo objects only
 * when a caller first reads `lines`.
 */
import type { LineInfo, PageText } from "./model.js";

const LINE_FIELDS = 8;

/** Where a page read from a record keeps its packed lines, and its lines once unpacked (hidden fields). */
const PACKED = Symbol("packed lines");
const UNPACKED = Symbol("unpacked lines");

interface LazyLines {
  [PACKED]: Float64Array;
  [UNPACKED]: LineInfo[] | undefined;
}

export type StoredPageText = Omit<PageText, "lines"> & { lines: Float64Array };

export function packPageText(text: PageText): StoredPageText {
  // A page read from a record whose lines nobody has read yet: packing it again reuses them.
  const lazy = text as Partial<LazyLines>;
  const kept = lazy[PACKED];
  if (kept && lazy[UNPACKED] === undefined) return withLines(text, kept);
  const packed = new Float64Array(text.lines.length * LINE_FIELDS);
  let at = 0;
  for (const line of text.lines) {
    packed[at] = line.startUtf16;
    packed[at + 1] = line.endUtf16;
    packed[at + 2] = line.box.left;
    packed[at + 3] = line.box.bottom;
    packed[at + 4] = line.box.right;
    packed[at + 5] = line.box.top;
    packed[at + 6] = line.fontSize;
    // A line given without a face (an OCR line) is stored as NaN and read back without one.
    packed[at + 7] = line.font ?? Number.NaN;
    at += LINE_FIELDS;
  }
  return { ...text, lines: packed };
}

/**
 * The page text a stored record holds, or undefined when the record is not one (a forged or foreign
 * entry whose digest happens to check out must still have the right shape).
 */
export function unpackPageText(stored: unknown, page: number): PageText | undefined {
  if (typeof stored !== "object" || stored === null) return undefined;
  const record = stored as StoredPageText;
  const packed = record.lines;
  if (
    record.page !== page ||
    typeof record.text !== "string" ||
    !(packed instanceof Float64Array) ||
    packed.length % LINE_FIELDS !== 0
  )
    return undefined;
  // A fresh object, its fields set in the record's order: every page read takes the same shape
  // transitions (the lines accessor's functions are shared), so pages share hidden classes and stay
  // in fast mode; redefining a property on the deserialized record would turn it into a dictionary.
  const text = {} as Record<string | symbol, unknown>;
  const fields = record as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key === "lines") Object.defineProperty(text, "lines", LINES_PROPERTY);
    else text[key] = fields[key];
  }
  Object.defineProperty(text, PACKED, { value: packed, writable: true });
  Object.defineProperty(text, UNPACKED, { value: undefined, writable: true });
  return text as unknown as PageText;
}

/**
 * Lines are unpacked on first read, then kept (a caller may change or replace them); until then the
 * packed array stands for them.
 */
const LINES_PROPERTY: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: LazyLines): LineInfo[] {
    let lines = this[UNPACKED];
    if (lines === undefined) {
      lines = unpackLines(this[PACKED]);
      this[UNPACKED] = lines;
    }
    return lines;
  },
  set(this: LazyLines, lines: LineInfo[]) {
    this[UNPACKED] = lines;
  },
};

/** A copy of the page with `packed` in place of its lines, which are not read (that would unpack them). */
function withLines(text: PageText, packed: Float64Array): StoredPageText {
  const out: Record<string, unknown> = {};
  const fields = text as unknown as Record<string, unknown>;
  for (const key of Object.keys(text)) out[key] = key === "lines" ? packed : fields[key];
  return out as unknown as StoredPageText;
}

function unpackLines(packed: Float64Array): LineInfo[] {
  const lines: LineInfo[] = new Array(packed.length / LINE_FIELDS);
  for (let i = 0, at = 0; at < packed.length; i++, at += LINE_FIELDS) {
    lines[i] = {
      startUtf16: packed[at],
      endUtf16: packed[at + 1],
      box: { left: packed[at + 2], bottom: packed[at + 3], right: packed[at + 4], top: packed[at + 5] },
      fontSize: packed[at + 6],
      ...(Number.isNaN(packed[at + 7]) ? {} : { font: packed[at + 7] }),
    };
  }
  return lines;
}
