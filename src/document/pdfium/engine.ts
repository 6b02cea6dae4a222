/**
 * Loading the engine and opening documents: PDFium compiled to WebAssembly (@embedpdf/pdfium). The
 * files of this folder are the only ones that touch the engine, and this one the only importer of
 * the package. Per-character loops call the raw wasm exports, which are several times faster than
 * the wrapped functions; heap views are re-read after every call that may grow memory.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { init, type WrappedPdfiumModule } from "@embedpdf/pdfium";
import { CiteproofError } from "../../errors.js";
import type { Box } from "../model.js";
import { EngineDocument } from "./document.js";
import { type EngineLimits, EngineState } from "./engine-state.js";

// biome-ignore lint/suspicious/noExplicitAny: raw wasm exports are untyped.
export type RawExports = Record<string, any>;

// The WebAssembly global, which the project's type libraries do not declare.
const wasm = (
  globalThis as unknown as {
    WebAssembly: { instantiate(binary: Uint8Array, imports: object): Promise<{ instance: unknown }> };
  }
).WebAssembly;

let enginePromise: Promise<Engine> | undefined;

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
  /** How large the engine's memory has grown, in bytes: WebAssembly memory only grows. */
  memoryBytes(): number {
    return this.memory.buffer.byteLength;
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
