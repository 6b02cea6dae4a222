/**
 * What the engine went through in one thread: its last messages, whether it aborted, and whether a
 * growth of its memory was refused at the limit. PDFium aborts when an allocation fails, and an
 * aborted engine cannot be used again: the thread that loaded it must be discarded.
 */
import { CiteproofError } from "../../errors.js";

export interface EngineLimits {
  /** Largest the engine's WebAssembly memory may grow to, in bytes; past it an allocation fails. */
  memoryBytes: number;
}

interface MemoryLike {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** A WebAssembly memory page: the unit memory grows by. */
const WASM_PAGE = 65536;

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
