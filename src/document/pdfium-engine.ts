/**
 * The one door to the PDF engine: PDFium compiled to WebAssembly (@embedpdf/pdfium).
 * No other module imports the engine. Per-character loops call the raw wasm exports, which are
 * several times faster than the wrapped functions; heap views are re-read after every call that
 * may grow memory.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { init, type WrappedPdfiumModule } from "@embedpdf/pdfium";
import { CiteproofError } from "../errors.js";
import {
  type Box,
  CHAR_FLAG_GENERATED,
  CHAR_FLAG_LINE_END_HYPHEN,
  type ExtractedPage,
  type GraphicObject,
  type LineInfo,
  type PageGeometry,
  type Rotation,
} from "./model.js";
import { displaySize, type RenderTransform, userBoxToDevice } from "./render-transform.js";
import { decideTextLayer } from "./text-layer-kind.js";

// biome-ignore lint/suspicious/noExplicitAny: raw wasm exports are untyped.
type RawExports = Record<string, any>;

const MAX_GRAPHICS_PER_PAGE = 4000;
const PAGEOBJ_TEXT = 1;
const PAGEOBJ_PATH = 2;
const PAGEOBJ_IMAGE = 3;
const PAGEOBJ_FORM = 5;
const BOX_MEDIA = 0;
const BOX_CROP = 1;
const FPDF_ANNOT = 0x01;
const FPDF_REVERSE_BYTE_ORDER = 0x10;
const PNG_COMPRESSION = 6;
/** Largest image a render may produce: 8000 x 8000 pixels. */
export const MAX_RENDER_PIXELS = 64_000_000;

export interface EngineRender {
  png: Uint8Array;
  widthPx: number;
  heightPx: number;
  transform: RenderTransform;
}

const UTF16 = new TextDecoder("utf-16le");

let enginePromise: Promise<Engine> | undefined;

export interface EngineLimits {
  /** Largest the engine's WebAssembly memory may grow to, in bytes; past it an allocation fails. */
  memoryBytes: number;
}

// The WebAssembly global, which the project's type libraries do not declare.
const wasm = (
  globalThis as unknown as {
    WebAssembly: { instantiate(binary: Uint8Array, imports: object): Promise<{ instance: unknown }> };
  }
).WebAssembly;

interface MemoryLike {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** A WebAssembly memory page: the unit memory grows by. */
const WASM_PAGE = 65536;

/**
 * Loads the engine once per thread. PDFium aborts when an allocation fails, and an aborted engine
 * cannot be used again: the thread that loaded it must be discarded (see Engine.aborted).
 */
export function loadEngine(limits?: EngineLimits): Promise<Engine> {
  if (!enginePromise) {
    enginePromise = (async () => {
      const require = createRequire(import.meta.url);
      const wasmPath = require.resolve("@embedpdf/pdfium/pdfium.wasm");
      const wasmBinary = readFileSync(wasmPath);
      const state = new EngineState(limits?.memoryBytes);
      const module = await init({
        wasmBinary: wasmBinary.buffer as ArrayBuffer,
        // The engine's messages (an abort's reason among them) are kept, never printed.
        print: (text: string) => state.note(text),
        printErr: (text: string) => state.note(text),
        onAbort: (what: unknown) => state.abort(String(what)),
        instantiateWasm: (
          imports: Record<string, Record<string, unknown>>,
          receive: (instance: unknown) => void,
        ) => {
          state.limitGrowth(imports);
          wasm.instantiate(wasmBinary, imports).then(
            (result) => {
              state.limitMemory(result.instance);
              receive(result.instance);
            },
            (error: unknown) => state.abort(`the engine could not be instantiated: ${String(error)}`),
          );
          return {};
        },
      } as unknown as Parameters<typeof init>[0]);
      module.PDFiumExt_Init();
      return new Engine(module, state);
    })();
  }
  return enginePromise;
}

/** What the engine went through: its last messages, whether it aborted, whether memory ran out. */
export class EngineState {
  aborted: string | undefined;
  /** Set when a growth of the engine's memory was refused at the limit. */
  memoryRefused = false;
  private readonly messages: string[] = [];

  constructor(readonly memoryLimitBytes: number | undefined) {}

  note(text: string): void {
    this.messages.push(text);
    if (this.messages.length > 8) this.messages.shift();
  }

  abort(what: string): void {
    this.aborted ??= what;
  }

  private requested = 0;

  private get ceiling(): number | undefined {
    const limit = this.memoryLimitBytes;
    return limit === undefined ? undefined : Math.max(WASM_PAGE, Math.floor(limit / WASM_PAGE) * WASM_PAGE);
  }

  /** Wraps the engine's heap growth so that it fails past the limit, as it does past its own 2 GiB. */
  limitGrowth(imports: Record<string, Record<string, unknown>>): void {
    const ceiling = this.ceiling;
    const env = imports.env;
    const resize = env?.emscripten_resize_heap as ((requested: number) => number) | undefined;
    if (ceiling === undefined || !env || !resize) return;
    env.emscripten_resize_heap = (requested: number) => {
      this.requested = requested >>> 0;
      if (this.requested > ceiling) {
        this.memoryRefused = true;
        return 0;
      }
      return resize(requested);
    };
  }

  /**
   * The engine grows its memory by a margin beyond what it asked for (up to 20% or 96 MB); near the
   * limit the margin is cut so that the memory never passes it.
   */
  limitMemory(instance: unknown): void {
    const ceiling = this.ceiling;
    const memory = (instance as { exports: { memory?: MemoryLike } }).exports.memory;
    if (ceiling === undefined || !memory) return;
    const grow = memory.grow.bind(memory);
    memory.grow = (pages: number) => {
      const current = memory.buffer.byteLength;
      if (current + pages * WASM_PAGE <= ceiling) return grow(pages);
      if (this.requested > ceiling) throw new RangeError("the engine's memory limit is reached");
      return grow(Math.max(0, Math.floor((ceiling - current) / WASM_PAGE)));
    };
  }

  /** The error a call that aborted the engine ends with. */
  lost(what: string): CiteproofError {
    return new CiteproofError(
      "EXTRACTION_FAILED",
      `the engine cannot serve ${what}: it aborted earlier (${this.aborted})`,
    );
  }

  /** The error a call that aborted the engine ends with. */
  failure(what: string): CiteproofError {
    if (this.memoryRefused) {
      const limitMb = Math.round((this.memoryLimitBytes ?? 0) / 2 ** 20);
      return new CiteproofError(
        "ENGINE_MEMORY_LIMIT",
        `${what} needs more than the engine's memory limit of ${limitMb} MB`,
        { limitMb },
      );
    }
    return new CiteproofError("EXTRACTION_FAILED", `the engine aborted on ${what} (${this.aborted})`);
  }
}

export class Engine {
  readonly module: WrappedPdfiumModule;
  readonly raw: RawExports;
  private memory: { buffer: ArrayBuffer };
  private f64: Float64Array;
  private f32: Float32Array;
  private u8: Uint8Array;
  private u16: Uint16Array;
  /** A scratch area for out-parameters: 64 bytes. */
  private readonly scratch: number;

  constructor(
    module: WrappedPdfiumModule,
    readonly state: EngineState,
  ) {
    this.module = module;
    this.raw = module.pdfium.wasmExports as unknown as RawExports;
    this.memory = this.raw.memory as { buffer: ArrayBuffer };
    this.f64 = new Float64Array(this.memory.buffer);
    this.f32 = new Float32Array(this.memory.buffer);
    this.u8 = new Uint8Array(this.memory.buffer);
    this.u16 = new Uint16Array(this.memory.buffer);
    this.scratch = this.raw.malloc(64);
  }

  private views(): void {
    if (this.f64.buffer !== this.memory.buffer) {
      this.f64 = new Float64Array(this.memory.buffer);
      this.f32 = new Float32Array(this.memory.buffer);
      this.u8 = new Uint8Array(this.memory.buffer);
      this.u16 = new Uint16Array(this.memory.buffer);
    }
  }

  /** Opens a document; the returned handle keeps its input buffer alive until close(). */
  open(bytes: Uint8Array, password?: string): EngineDocument {
    return this.guard("opening the PDF", () => this.openNow(bytes, password));
  }

  /**
   * Runs one engine call: when it fails because memory ran out at the limit, or the engine aborted,
   * the error says so (and an aborted engine is left marked: its thread must be discarded).
   */
  guard<T>(what: string, call: () => T): T {
    if (this.state.aborted) throw this.state.lost(what);
    this.state.memoryRefused = false;
    try {
      return call();
    } catch (error) {
      if (this.state.aborted || this.state.memoryRefused) throw this.state.failure(what);
      throw error;
    }
  }

  private openNow(bytes: Uint8Array, password?: string): EngineDocument {
    const size = bytes.byteLength;
    const dataPtr = this.raw.malloc(Math.max(1, size));
    if (!dataPtr) {
      if (this.state.memoryRefused) throw this.state.failure("opening the PDF");
      throw new CiteproofError("FILE_TOO_LARGE", "the PDF does not fit in the engine's memory");
    }
    this.views();
    this.u8.set(bytes, dataPtr);
    const doc = this.module.FPDF_LoadMemDocument(dataPtr, size, password ?? "") as number;
    if (!doc) {
      const err = this.module.FPDF_GetLastError() as number;
      this.raw.free(dataPtr);
      throw loadError(err, password !== undefined);
    }
    return new EngineDocument(this, doc, dataPtr);
  }

  readBoxF(rectPtr: number): Box {
    this.views();
    const i = rectPtr >> 2;
    // FS_RECTF is {left, top, right, bottom}.
    const left = this.f32[i];
    const top = this.f32[i + 1];
    const right = this.f32[i + 2];
    const bottom = this.f32[i + 3];
    return {
      left: Math.min(left, right),
      bottom: Math.min(top, bottom),
      right: Math.max(left, right),
      top: Math.max(top, bottom),
    };
  }

  /** Internal accessors for the per-page extractor. */
  heapF64(): Float64Array {
    this.views();
    return this.f64;
  }
  heapF32(): Float32Array {
    this.views();
    return this.f32;
  }
  heapU8(): Uint8Array {
    this.views();
    return this.u8;
  }
  heapU16(): Uint16Array {
    this.views();
    return this.u16;
  }
  scratchPtr(): number {
    return this.scratch;
  }
}

function loadError(code: number, passwordGiven: boolean): CiteproofError {
  switch (code) {
    case 4:
      return passwordGiven
        ? new CiteproofError("BAD_PASSWORD", "the PDF is encrypted and the password given does not open it")
        : new CiteproofError("ENCRYPTED_PDF", "the PDF is encrypted");
    case 5:
      return new CiteproofError(
        "UNSUPPORTED_SECURITY",
        "the PDF uses a security handler the engine cannot open",
      );
    case 2:
    case 3:
      return new CiteproofError("DAMAGED_PDF", "the PDF is damaged or truncated and cannot be opened");
    default:
      return new CiteproofError("DAMAGED_PDF", `the PDF cannot be opened (engine error ${code})`);
  }
}

export class EngineDocument {
  private closed = false;
  readonly pageCount: number;
  private readonly scratch = new CharScratch();

  constructor(
    private readonly engine: Engine,
    readonly handle: number,
    private readonly dataPtr: number,
  ) {
    this.pageCount = engine.raw.FPDF_GetPageCount(handle);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.engine.raw.FPDF_CloseDocument(this.handle);
    this.engine.raw.free(this.dataPtr);
  }

  private pageBox(index: number, type: number): Box | undefined {
    const ptr = this.engine.scratchPtr();
    if (!this.engine.raw.EPDF_GetPageBoxByIndex(this.handle, index, type, ptr)) return undefined;
    return this.engine.readBoxF(ptr);
  }

  /**
   * Extracts one page (0-based index): text in content order, graphics, and with `withGeometry`
   * the per-character geometry. Without it only what the text layer needs is asked of the engine.
   */
  extractPage(index: number, withGeometry = true): ExtractedPage {
    return this.engine.guard(`page ${index + 1}`, () => this.extractPageNow(index, withGeometry));
  }

  private extractPageNow(index: number, withGeometry: boolean): ExtractedPage {
    const raw = this.engine.raw;
    const page = raw.FPDF_LoadPage(this.handle, index);
    if (!page) throw new CiteproofError("DAMAGED_PDF", `page ${index + 1} cannot be loaded`);
    try {
      const mediaBox = this.pageBox(index, BOX_MEDIA) ?? {
        left: 0,
        bottom: 0,
        right: raw.FPDF_GetPageWidthF(page),
        top: raw.FPDF_GetPageHeightF(page),
      };
      const cropBox = intersect(this.pageBox(index, BOX_CROP) ?? mediaBox, mediaBox);
      const rotation = (((raw.FPDFPage_GetRotation(page) | 0) & 3) * 90) as Rotation;
      const cw = cropBox.right - cropBox.left;
      const ch = cropBox.top - cropBox.bottom;
      const width = rotation % 180 === 0 ? cw : ch;
      const height = rotation % 180 === 0 ? ch : cw;
      const { graphics, dropped, paint } = this.collectGraphics(page);
      const textPage = raw.FPDFText_LoadPage(page);
      if (!textPage) throw new CiteproofError("DAMAGED_PDF", `the text of page ${index + 1} cannot be read`);
      try {
        const chars = this.extractChars(textPage, withGeometry, paint);
        return {
          text: {
            page: index + 1,
            mediaBox,
            cropBox,
            rotation,
            width,
            height,
            text: chars.text,
            lines: chars.lines,
            lineEndHyphensUtf16: chars.hyphens,
            scriptBreaksUtf16: chars.scriptBreaks,
            graphics,
            graphicsDropped: dropped,
            fonts: chars.fonts,
            hasTextLayer: /\S/.test(chars.text),
            textLayer: decideTextLayer({
              chars: chars.inkChars,
              hiddenChars: chars.hiddenChars,
              lines: chars.lines,
              graphics,
              cropBox,
            }),
            largestImagePixels: paint.largestImagePixels,
          },
          geometry: withGeometry
            ? {
                page: index + 1,
                glyphBoxes: chars.glyphBoxes,
                looseBoxes: chars.looseBoxes,
                origins: chars.origins,
                fontSizes: chars.fontSizes,
                fontIndex: chars.fontIndex,
                flags: chars.flags,
              }
            : undefined,
        };
      } finally {
        raw.FPDFText_ClosePage(textPage);
      }
    } finally {
      raw.FPDF_ClosePage(page);
    }
  }

  private extractChars(textPage: number, withGeometry: boolean, paint: PaintOrder) {
    const engine = this.engine;
    const raw = engine.raw;
    const count = Math.max(0, raw.FPDFText_CountChars(textPage) | 0);
    // Astral characters take two units and each line-end hyphen adds a break: at most 2 per char.
    // The arrays are reused from page to page (every slot below n is written), and copied out at the end.
    const { units, glyphBoxes, looseBoxes, origins, fontSizes, fontIndex, flags } = this.scratch.ensure(
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
    let f64 = engine.heapF64();
    let f32 = engine.heapF32();
    const getRenderMode = raw.FPDFTextObj_GetTextRenderMode;
    let lastObject = -1;
    let lastFont = -1;
    let lastSize = 0;
    let objectChanged = false;
    let lastInvisible = false;
    let lastHidden = false;
    let inkChars = 0;
    let hiddenChars = 0;
    let n = 0;

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
          fonts.push(this.fontName(font));
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
    const lines = buildLines(text, glyphBoxes.subarray(0, n * 4), fontSizes.subarray(0, n));
    // Without geometry the per-character arrays served only the lines: nothing is copied out.
    const none = new Float32Array(0);
    return {
      text,
      lines,
      inkChars,
      hiddenChars,
      hyphens,
      scriptBreaks,
      fonts,
      glyphBoxes: withGeometry ? glyphBoxes.slice(0, n * 4) : none,
      looseBoxes: withGeometry ? looseBoxes.slice(0, n * 4) : none,
      origins: withGeometry ? origins.slice(0, n * 2) : none,
      fontSizes: withGeometry ? fontSizes.slice(0, n) : none,
      fontIndex: withGeometry ? fontIndex.slice(0, n) : new Int16Array(0),
      flags: withGeometry ? flags.slice(0, n) : new Uint8Array(0),
    };
  }

  private fontName(font: number): string {
    if (!font) return "";
    const raw = this.engine.raw;
    const len = raw.FPDFFont_GetBaseFontName(font, 0, 0) >>> 0;
    if (len <= 1) return "";
    const buf = raw.malloc(len);
    try {
      raw.FPDFFont_GetBaseFontName(font, buf, len);
      const u8 = this.engine.heapU8();
      let s = "";
      for (let i = 0; i < len - 1; i++) s += String.fromCharCode(u8[buf + i]);
      return s;
    } finally {
      raw.free(buf);
    }
  }

  private collectGraphics(page: number): {
    graphics: GraphicObject[];
    dropped: number;
    paint: PaintOrder;
  } {
    const raw = this.engine.raw;
    const graphics: GraphicObject[] = [];
    const paint: PaintOrder = { textOrder: new Map(), images: [], largestImagePixels: 0 };
    let dropped = 0;
    let order = 0;
    const s = this.engine.scratchPtr();
    const visit = (obj: number, matrix: Matrix | undefined, depth: number) => {
      const type = raw.FPDFPageObj_GetType(obj);
      order++;
      if (type === PAGEOBJ_TEXT) {
        paint.textOrder.set(obj, order);
        return;
      }
      if (type === PAGEOBJ_FORM) {
        if (depth > 8) return;
        let own: Matrix | undefined;
        if (raw.FPDFPageObj_GetMatrix(obj, s)) {
          const f = this.engine.heapF32();
          const k = s >> 2;
          own = [f[k], f[k + 1], f[k + 2], f[k + 3], f[k + 4], f[k + 5]];
        }
        const composed = own ? (matrix ? multiply(own, matrix) : own) : matrix;
        const n = raw.FPDFFormObj_CountObjects(obj);
        for (let i = 0; i < n; i++) {
          const child = raw.FPDFFormObj_GetObject(obj, i);
          if (child) visit(child, composed, depth + 1);
        }
        return;
      }
      if (type !== PAGEOBJ_PATH && type !== PAGEOBJ_IMAGE) return;
      if (graphics.length >= MAX_GRAPHICS_PER_PAGE) {
        dropped++;
        return;
      }
      if (!raw.FPDFPageObj_GetBounds(obj, s, s + 4, s + 8, s + 12)) return;
      const f = this.engine.heapF32();
      const k = s >> 2;
      let box: Box = { left: f[k], bottom: f[k + 1], right: f[k + 2], top: f[k + 3] };
      if (matrix) box = transformBox(box, matrix);
      if (![box.left, box.bottom, box.right, box.top].every(Number.isFinite)) return;
      graphics.push({ kind: type === PAGEOBJ_IMAGE ? "image" : "path", box });
      if (type === PAGEOBJ_IMAGE) {
        paint.images.push({ order, box });
        if (raw.FPDFImageObj_GetImagePixelSize(obj, s, s + 4)) {
          const heap = this.engine.heapU8();
          const view = new DataView(heap.buffer, heap.byteOffset);
          const pixels = view.getUint32(s, true) * view.getUint32(s + 4, true);
          if (pixels > paint.largestImagePixels) paint.largestImagePixels = pixels;
        }
      }
    };
    const count = raw.FPDFPage_CountObjects(page);
    for (let i = 0; i < count; i++) {
      const obj = raw.FPDFPage_GetObject(page, i);
      if (obj) visit(obj, undefined, 0);
    }
    return { graphics, dropped, paint };
  }

  /**
   * Renders a region of a page (0-based index) to PNG. `box` is in default user space (undefined:
   * the whole visible page); the render applies the page's /Rotate, so the image looks as a viewer
   * shows the page. A box reaching past the page is clipped to it; one wholly outside is refused.
   */
  renderRegion(index: number, box: Box | undefined, dpi: number): EngineRender {
    return this.engine.guard(`page ${index + 1}`, () => this.renderRegionNow(index, box, dpi));
  }

  private renderRegionNow(index: number, box: Box | undefined, dpi: number): EngineRender {
    const raw = this.engine.raw;
    const page = raw.FPDF_LoadPage(this.handle, index);
    if (!page) throw new CiteproofError("DAMAGED_PDF", `page ${index + 1} cannot be loaded`);
    try {
      const rotation = (((raw.FPDFPage_GetRotation(page) | 0) & 3) * 90) as Rotation;
      const mediaBox = this.pageBox(index, BOX_MEDIA) ?? {
        left: 0,
        bottom: 0,
        right: raw.FPDF_GetPageWidthF(page),
        top: raw.FPDF_GetPageHeightF(page),
      };
      const cropBox = intersect(this.pageBox(index, BOX_CROP) ?? mediaBox, mediaBox);
      const region = box ? clipRegion(box, cropBox, index + 1) : cropBox;
      const display = displaySize(cropBox, rotation);
      const scale = dpi / 72;
      const pageW = Math.max(1, Math.round(display.width * scale));
      const pageH = Math.max(1, Math.round(display.height * scale));
      const t: RenderTransform = {
        page: index + 1,
        rotation,
        cropBox,
        dpi,
        scaleX: pageW / display.width,
        scaleY: pageH / display.height,
        offsetXPx: 0,
        offsetYPx: 0,
      };
      const r = userBoxToDevice(region, t);
      const x0 = Math.max(0, Math.floor(r.x0 + 1e-6));
      const y0 = Math.max(0, Math.floor(r.y0 + 1e-6));
      const x1 = Math.min(pageW, Math.ceil(r.x1 - 1e-6));
      const y1 = Math.min(pageH, Math.ceil(r.y1 - 1e-6));
      const width = Math.max(1, x1 - x0);
      const height = Math.max(1, y1 - y0);
      if (width * height > MAX_RENDER_PIXELS) {
        throw new CiteproofError(
          "BOX_INVALID",
          `the region would be ${width} x ${height} pixels at ${dpi} dpi, more than the ${MAX_RENDER_PIXELS} allowed; use a smaller box or a lower dpi`,
        );
      }
      const bitmap = raw.FPDFBitmap_Create(width, height, 1);
      if (!bitmap) throw new CiteproofError("BOX_INVALID", "the region is too large to render");
      try {
        raw.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
        // The page's own /Rotate is applied by the engine; rotate = 0 adds nothing to it.
        raw.FPDF_RenderPageBitmap(
          bitmap,
          page,
          -x0,
          -y0,
          pageW,
          pageH,
          0,
          FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER,
        );
        const stride = raw.FPDFBitmap_GetStride(bitmap);
        const buffer = raw.FPDFBitmap_GetBuffer(bitmap);
        const png = this.encodePng(buffer, width, height, stride);
        return { png, widthPx: width, heightPx: height, transform: { ...t, offsetXPx: x0, offsetYPx: y0 } };
      } finally {
        raw.FPDFBitmap_Destroy(bitmap);
      }
    } finally {
      raw.FPDF_ClosePage(page);
    }
  }

  private encodePng(buffer: number, width: number, height: number, stride: number): Uint8Array {
    const raw = this.engine.raw;
    const outPtrPtr = raw.malloc(4);
    try {
      const size = this.engine.module.EPDF_PNG_EncodeRGBA(
        buffer,
        width,
        height,
        stride,
        PNG_COMPRESSION,
        outPtrPtr,
      ) as number;
      if (!size) throw new CiteproofError("INTERNAL", "the PNG encoder failed");
      const u8 = this.engine.heapU8();
      const outPtr = new Uint32Array(u8.buffer)[outPtrPtr >> 2];
      const png = u8.slice(outPtr, outPtr + size);
      raw.free(outPtr);
      return png;
    } finally {
      raw.free(outPtrPtr);
    }
  }

  /** Page count and boxes without extracting text. */
  pageBoxes(index: number): { mediaBox: Box; cropBox: Box; rotation: Rotation } {
    const mediaBox = this.pageBox(index, BOX_MEDIA) ?? { left: 0, bottom: 0, right: 612, top: 792 };
    const cropBox = intersect(this.pageBox(index, BOX_CROP) ?? mediaBox, mediaBox);
    const rotation = ((((this.engine.raw.EPDF_GetPageRotationByIndex(this.handle, index) | 0) & 3) * 90) |
      0) as Rotation;
    return { mediaBox, cropBox, rotation };
  }
}

type Matrix = [number, number, number, number, number, number];

/** The per-character arrays of a page being extracted: its UTF-16 units and the geometry's arrays. */
type CharArrays = { units: Uint16Array } & Omit<PageGeometry, "page">;

/** Per-character working arrays, grown when a page needs more and reused for every page. */
class CharScratch implements CharArrays {
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

/** The painting order of a page's text objects and images, to tell text an image paints over. */
interface PaintOrder {
  textOrder: Map<number, number>;
  images: { order: number; box: Box }[];
  /** Width times height of the page's largest image, in the image's own pixels (0 without images). */
  largestImagePixels: number;
}

function coveredByLaterImage(
  paint: PaintOrder,
  object: number,
  left: number,
  bottom: number,
  right: number,
  top: number,
): boolean {
  if (paint.images.length === 0) return false;
  const order = paint.textOrder.get(object);
  if (order === undefined) return false;
  for (const image of paint.images) {
    const b = image.box;
    if (image.order > order && b.left <= left && b.bottom <= bottom && b.right >= right && b.top >= top)
      return true;
  }
  return false;
}

function multiply(a: Matrix, b: Matrix): Matrix {
  // Apply a first, then b (row-vector convention of PDF).
  return [
    a[0] * b[0] + a[1] * b[2],
    a[0] * b[1] + a[1] * b[3],
    a[2] * b[0] + a[3] * b[2],
    a[2] * b[1] + a[3] * b[3],
    a[4] * b[0] + a[5] * b[2] + b[4],
    a[4] * b[1] + a[5] * b[3] + b[5],
  ];
}

function transformBox(box: Box, m: Matrix): Box {
  const pts = [
    [box.left, box.bottom],
    [box.right, box.bottom],
    [box.left, box.top],
    [box.right, box.top],
  ].map(([x, y]) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return { left: Math.min(...xs), bottom: Math.min(...ys), right: Math.max(...xs), top: Math.max(...ys) };
}

function intersect(a: Box, b: Box): Box {
  const r = {
    left: Math.max(a.left, b.left),
    bottom: Math.max(a.bottom, b.bottom),
    right: Math.min(a.right, b.right),
    top: Math.min(a.top, b.top),
  };
  return r.right > r.left && r.top > r.bottom ? r : b;
}

/** Clips a requested region to the visible page; refuses one that is not finite or lies outside it. */
function clipRegion(box: Box, cropBox: Box, page: number): Box {
  const values = [box.left, box.bottom, box.right, box.top];
  if (!values.every(Number.isFinite)) {
    throw new CiteproofError("BOX_INVALID", `the box ${values.join(",")} is not made of finite numbers`);
  }
  if (!(box.right > box.left && box.top > box.bottom)) {
    throw new CiteproofError(
      "BOX_INVALID",
      `the box ${values.join(",")} is empty: it needs left < right and bottom < top`,
    );
  }
  const clipped = {
    left: Math.max(box.left, cropBox.left),
    bottom: Math.max(box.bottom, cropBox.bottom),
    right: Math.min(box.right, cropBox.right),
    top: Math.min(box.top, cropBox.top),
  };
  if (!(clipped.right > clipped.left && clipped.top > clipped.bottom)) {
    const c = [cropBox.left, cropBox.bottom, cropBox.right, cropBox.top].map(
      (v) => Math.round(v * 100) / 100,
    );
    throw new CiteproofError(
      "BOX_INVALID",
      `the box ${values.join(",")} lies outside page ${page}, whose visible area is ${c.join(",")}`,
    );
  }
  return clipped;
}

/**
 * Offsets where a raised, smaller run (a footnote mark, an exponent, an ordinal's letters) meets
 * ordinary text with nothing between them, as in "examined.¹Earlier" or a footnote's "60Theorem".
 * The text keeps them glued; matching may read a word boundary there.
 */
function findScriptBreaks(
  units: Uint16Array,
  n: number,
  glyphBoxes: Float32Array,
  fontSizes: Float32Array,
  flags: Uint8Array,
): number[] {
  const breaks: number[] = [];
  for (let i = 1; i < n; i++) {
    if (flags[i] & CHAR_FLAG_GENERATED || flags[i - 1] & CHAR_FLAG_GENERATED) continue;
    if (units[i] === 32 || units[i - 1] === 32 || units[i] === 10 || units[i - 1] === 10) continue;
    const a = fontSizes[i - 1];
    const b = fontSizes[i];
    if (!(a > 0 && b > 0)) continue;
    const small = a < b ? i - 1 : i;
    const large = a < b ? i : i - 1;
    if (fontSizes[small] > fontSizes[large] * 0.8) continue;
    // Raised: the small glyph's foot stands clearly above the large one's.
    if (glyphBoxes[small * 4 + 1] > glyphBoxes[large * 4 + 1] + 0.25 * fontSizes[large]) breaks.push(i);
  }
  return breaks;
}

function buildLines(text: string, glyphBoxes: Float32Array, fontSizes: Float32Array): LineInfo[] {
  const lines: LineInfo[] = [];
  const sizes: number[] = [];
  const weights: number[] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && text.charCodeAt(i) !== 10) continue;
    let left = Infinity;
    let bottom = Infinity;
    let right = -Infinity;
    let top = -Infinity;
    sizes.length = 0;
    weights.length = 0;
    let lastRaw = Number.NaN;
    let lastAt = -1;
    for (let k = start; k < i; k++) {
      const b = k * 4;
      const l = glyphBoxes[b];
      if (Number.isNaN(l)) continue; // a generated character
      if (l < left) left = l;
      if (glyphBoxes[b + 1] < bottom) bottom = glyphBoxes[b + 1];
      if (glyphBoxes[b + 2] > right) right = glyphBoxes[b + 2];
      if (glyphBoxes[b + 3] > top) top = glyphBoxes[b + 3];
      // Sizes change per text object, not per character: look the size up only when it changes.
      const raw = fontSizes[k];
      if (raw !== lastRaw) {
        lastRaw = raw;
        const size = Math.round(raw * 10) / 10;
        lastAt = sizes.indexOf(size);
        if (lastAt < 0) {
          lastAt = sizes.length;
          sizes.push(size);
          weights.push(0);
        }
      }
      weights[lastAt]++;
    }
    let fontSize = 0;
    let best = 0;
    for (let k = 0; k < sizes.length; k++) {
      if (weights[k] > best) {
        best = weights[k];
        fontSize = sizes[k];
      }
    }
    lines.push({
      startUtf16: start,
      endUtf16: i,
      box: Number.isFinite(left) ? { left, bottom, right, top } : { left: 0, bottom: 0, right: 0, top: 0 },
      fontSize,
    });
    start = i + 1;
  }
  return lines;
}
