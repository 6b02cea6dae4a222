/**
 * The character loop: a text page's characters in content order, as UTF-16 text with per-character
 * boxes, origins, font sizes, fonts and flags, and the lines, line-end hyphens and script breaks
 * derived from them. What is read per character lives here, in one loop.
 */
import { CiteproofError } from "../../errors.js";
import {
  CHAR_FLAG_GENERATED,
  CHAR_FLAG_LINE_END_HYPHEN,
  type LineInfo,
  type PageGeometry,
} from "../model.js";
import type { Engine } from "./engine.js";
import { coveredByLaterImage, type PaintOrder } from "./graphics.js";
import { buildLines } from "./lines.js";
import { findScriptBreaks } from "./script-breaks.js";

const UTF16 = new TextDecoder("utf-16le");

/**
 * The most characters one page may yield. A dense real page holds tens of thousands; past this, the
 * per-character arrays alone would take hundreds of MiB outside the engine's memory limit (a few
 * bytes of a ToUnicode map can make every glyph yield a long string). The page is refused, read as
 * unreadable, before its arrays are made.
 */
export const MAX_PAGE_CHARACTERS = 1 << 20;
/**
 * The most characters one glyph may yield. The engine gives a glyph's ToUnicode string as that many
 * characters on one box; the longest string Unicode decomposes one character into is 18 code points.
 */
export const MAX_CHARACTERS_PER_GLYPH = 64;

/** What the loop gives for a page: the text layer's parts and the geometry's arrays (empty without geometry). */
export interface PageCharacters extends Omit<PageGeometry, "page"> {
  text: string;
  lines: LineInfo[];
  hyphens: number[];
  scriptBreaks: number[];
  fonts: string[];
  /** Characters that paint ink (not spaces), and those of them nobody sees (render modes 3 and 7, or under a later image). */
  inkChars: number;
  hiddenChars: number;
}

export function extractCharacters(
  engine: Engine,
  textPage: number,
  scratch: CharScratch,
  withGeometry: boolean,
  paint: PaintOrder,
): PageCharacters {
  const raw = engine.raw;
  const count = Math.max(0, raw.FPDFText_CountChars(textPage) | 0);
  if (count > MAX_PAGE_CHARACTERS) {
    throw new CiteproofError(
      "EXTRACTION_FAILED",
      `the page yields ${count} characters, more than the ${MAX_PAGE_CHARACTERS} a page may`,
      { characters: count, limit: MAX_PAGE_CHARACTERS },
    );
  }
  // Astral characters take two units and each line-end hyphen adds a break: at most 2 per char.
  // The arrays are reused from page to page (every slot below n is written), and copied out at the end.
  const { units, glyphBoxes, looseBoxes, origins, fontSizes, fontIndex, flags } = scratch.ensure(
    count * 2 + 1,
  );
  const hyphens: number[] = [];
  const fonts: string[] = [];
  const fontByHandle = new Map<number, number>();
  const s = engine.scratchPtr();
  const s64 = s >> 3;
  const s32 = s >> 2;
  const getUnicode = raw.FPDFText_GetUnicode;
  const isGenerated = raw.FPDFText_IsGenerated;
  const isHyphen = raw.FPDFText_IsHyphen;
  const getCharBox = raw.FPDFText_GetCharBox;
  const getLooseBox = raw.FPDFText_GetLooseCharBox;
  const getOrigin = raw.FPDFText_GetCharOrigin;
  const getFontSize = raw.FPDFText_GetFontSize;
  const getTextObject = raw.FPDFText_GetTextObject;
  const getFont = raw.FPDFTextObj_GetFont;
  const getRenderMode = raw.FPDFTextObj_GetTextRenderMode;
  let f64 = engine.heapF64();
  let f32 = engine.heapF32();
  let lastObject = -1;
  let lastFont = -1;
  let lastSize = 0;
  let objectChanged = false;
  let lastInvisible = false;
  let lastHidden = false;
  let inkChars = 0;
  let hiddenChars = 0;
  let n = 0;
  // Characters in a row on one box of one text object: the pieces of one glyph's ToUnicode string.
  let pieces = 0;
  let pieceObject = -1;
  let pieceLeft = Number.NaN;
  let pieceBottom = Number.NaN;
  let pieceRight = Number.NaN;
  let pieceTop = Number.NaN;

  // Kept out of a closure: a counter captured by one would live on the heap and slow every character.
  const arrays: CharArrays = { units, glyphBoxes, looseBoxes, origins, fontSizes, fontIndex, flags };

  for (let i = 0; i < count; i++) {
    let code = getUnicode(textPage, i) >>> 0;
    // The engine generates only spaces and line breaks: no need to ask about other characters.
    if ((code === 32 || code === 10 || code === 13) && isGenerated(textPage, i) === 1) {
      if (code === 13) continue;
      if (code !== 10 && code !== 32) code = 32;
      const previousGenerated = n > 0 && (flags[n - 1] & CHAR_FLAG_GENERATED) !== 0;
      if (code === 10 && previousGenerated && units[n - 1] === 32) {
        units[n - 1] = 10;
        continue;
      }
      // Generated whitespace right after a generated line break (one follows each line-end hyphen) adds nothing.
      if (previousGenerated && units[n - 1] === 10) continue;
      writeGenerated(arrays, n++, code, withGeometry);
      continue;
    }
    let flag = 0;
    // Only dashes can be flagged as hyphens; asking for every character costs time.
    if (code === 2 || ((code === 0x2d || code === 0xad) && isHyphen(textPage, i) === 1)) {
      code = 0x2d;
      flag = CHAR_FLAG_LINE_END_HYPHEN;
      hyphens.push(n);
    } else if (code < 0x20 || code === 0xfffe || code === 0xffff) {
      if (code === 9 || code === 10 || code === 13) code = 32;
      else continue;
    }
    getCharBox(textPage, i, s, s + 8, s + 16, s + 24);
    if (withGeometry) {
      getLooseBox(textPage, i, s + 32);
      getOrigin(textPage, i, s + 48, s + 56);
    }
    const object = getTextObject(textPage, i);
    if (object !== lastObject) {
      lastObject = object;
      objectChanged = true;
      // Render modes 3 (invisible) and 7 (clip only) paint nothing: an OCR layer's text.
      const mode = object ? getRenderMode(object) : 0;
      lastInvisible = mode === 3 || mode === 7;
      // The size is the text object's: one call per object, not per character.
      lastSize = getFontSize(textPage, i);
      const font = object ? getFont(object) : 0;
      let idx = fontByHandle.get(font);
      if (idx === undefined) {
        idx = fonts.length;
        fonts.push(fontName(engine, font));
        fontByHandle.set(font, idx);
      }
      lastFont = idx;
    }
    // These calls do not allocate, but fontName does; a detached view (length 0) means memory grew.
    if (f64.length === 0) {
      f64 = engine.heapF64();
      f32 = engine.heapF32();
    }
    // FPDFText_GetCharBox writes left, right, bottom, top; FS_RECTF is left, top, right, bottom.
    const gl = f64[s64];
    const gr = f64[s64 + 1];
    const gb = f64[s64 + 2];
    const gt = f64[s64 + 3];
    const ll = f32[s32 + 8];
    const lt = f32[s32 + 9];
    const lr = f32[s32 + 10];
    const lb = f32[s32 + 11];
    const ox = f64[s64 + 6];
    const oy = f64[s64 + 7];
    if (
      object === pieceObject &&
      gl === pieceLeft &&
      gb === pieceBottom &&
      gr === pieceRight &&
      gt === pieceTop
    ) {
      if (++pieces > MAX_CHARACTERS_PER_GLYPH) {
        throw new CiteproofError(
          "EXTRACTION_FAILED",
          `a glyph of the page yields more than ${MAX_CHARACTERS_PER_GLYPH} characters: its font's ToUnicode map is not believed`,
          { limit: MAX_CHARACTERS_PER_GLYPH },
        );
      }
    } else {
      pieces = 1;
      pieceObject = object;
      pieceLeft = gl;
      pieceBottom = gb;
      pieceRight = gr;
      pieceTop = gt;
    }
    if (objectChanged) {
      objectChanged = false;
      // Judged by the object's first glyph: text an image painted later wholly covers is hidden too.
      lastHidden = lastInvisible || coveredByLaterImage(paint, object, gl, gb, gr, gt);
    }
    if (code !== 32) {
      inkChars++;
      if (lastHidden) hiddenChars++;
    }
    const unitCount = code > 0xffff ? 2 : 1;
    for (let u = 0; u < unitCount; u++) {
      if (unitCount === 2) {
        const c = code - 0x10000;
        units[n] = u === 0 ? 0xd800 + (c >> 10) : 0xdc00 + (c & 0x3ff);
      } else {
        units[n] = code;
      }
      const b = n * 4;
      glyphBoxes[b] = gl;
      glyphBoxes[b + 1] = gb;
      glyphBoxes[b + 2] = gr;
      glyphBoxes[b + 3] = gt;
      if (withGeometry) {
        looseBoxes[b] = Math.min(ll, lr);
        looseBoxes[b + 1] = Math.min(lt, lb);
        looseBoxes[b + 2] = Math.max(ll, lr);
        looseBoxes[b + 3] = Math.max(lt, lb);
        origins[n * 2] = ox;
        origins[n * 2 + 1] = oy;
      }
      fontSizes[n] = lastSize;
      fontIndex[n] = lastFont;
      flags[n] = flag;
      n++;
    }
    // The engine generates no line break after a line-end hyphen; the model ends the line there.
    if (flag & CHAR_FLAG_LINE_END_HYPHEN) writeGenerated(arrays, n++, 10, withGeometry);
  }
  // Trailing generated whitespace carries nothing.
  while (n > 0 && flags[n - 1] & CHAR_FLAG_GENERATED) n--;
  const text = UTF16.decode(units.subarray(0, n));
  const scriptBreaks = findScriptBreaks(units, n, glyphBoxes, fontSizes, flags);
  const lines = buildLines(
    text,
    glyphBoxes.subarray(0, n * 4),
    fontSizes.subarray(0, n),
    fontIndex.subarray(0, n),
  );
  // Without geometry the per-character arrays served only the lines: nothing is copied out.
  const none = new Float32Array(0);
  return {
    text,
    lines,
    hyphens,
    scriptBreaks,
    fonts,
    inkChars,
    hiddenChars,
    glyphBoxes: withGeometry ? glyphBoxes.slice(0, n * 4) : none,
    looseBoxes: withGeometry ? looseBoxes.slice(0, n * 4) : none,
    origins: withGeometry ? origins.slice(0, n * 2) : none,
    fontSizes: withGeometry ? fontSizes.slice(0, n) : none,
    fontIndex: withGeometry ? fontIndex.slice(0, n) : new Int16Array(0),
    flags: withGeometry ? flags.slice(0, n) : new Uint8Array(0),
  };
}

function fontName(engine: Engine, font: number): string {
  if (!font) return "";
  const raw = engine.raw;
  const len = raw.FPDFFont_GetBaseFontName(font, 0, 0) >>> 0;
  if (len <= 1) return "";
  const buf = raw.malloc(len);
  try {
    raw.FPDFFont_GetBaseFontName(font, buf, len);
    const u8 = engine.heapU8();
    let s = "";
    for (let i = 0; i < len - 1; i++) s += String.fromCharCode(u8[buf + i]);
    return s;
  } finally {
    raw.free(buf);
  }
}

/** The per-character arrays of a page being extracted: its UTF-16 units and the geometry's arrays. */
type CharArrays = { units: Uint16Array } & Omit<PageGeometry, "page">;

/** Per-character working arrays, grown when a page needs more and reused for every page. */
export class CharScratch implements CharArrays {
  private capacity = 0;
  units = new Uint16Array(0);
  glyphBoxes = new Float32Array(0);
  looseBoxes = new Float32Array(0);
  origins = new Float32Array(0);
  fontSizes = new Float32Array(0);
  fontIndex = new Int16Array(0);
  flags = new Uint8Array(0);

  ensure(needed: number): CharArrays {
    if (needed > this.capacity) {
      const c = Math.max(needed, Math.ceil(this.capacity * 1.5), 8192);
      this.capacity = c;
      this.units = new Uint16Array(c);
      this.glyphBoxes = new Float32Array(c * 4);
      this.looseBoxes = new Float32Array(c * 4);
      this.origins = new Float32Array(c * 2);
      this.fontSizes = new Float32Array(c);
      this.fontIndex = new Int16Array(c);
      this.flags = new Uint8Array(c);
    }
    return this;
  }
}

/** Writes a character the engine generated (a space or line break): no box, no font. */
function writeGenerated(arrays: CharArrays, n: number, code: number, withGeometry: boolean): void {
  arrays.units[n] = code;
  const b = n * 4;
  arrays.glyphBoxes.fill(Number.NaN, b, b + 4);
  if (withGeometry) {
    arrays.looseBoxes.fill(Number.NaN, b, b + 4);
    arrays.origins.fill(Number.NaN, n * 2, n * 2 + 2);
  }
  arrays.fontSizes[n] = 0;
  arrays.fontIndex[n] = -1;
  arrays.flags[n] = CHAR_FLAG_GENERATED;
}
