/**
 * Offline OCR with tesseract.js (Tesseract compiled to WebAssembly, in a worker thread) and the
 * English model shipped in @tesseract.js-data/eng, always read from that package's folder (never
 * downloaded, never cached elsewhere). Each call runs under a deadline; on expiry the worker is
 * terminated.
 */
import { createRequire } from "node:module";
import { CiteproofError } from "../errors.js";
import { modelFolder } from "./model.js";
import type { OcrReading, OcrWordPx } from "./tesseract.js";

const require = createRequire(import.meta.url);

interface TesseractBbox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface TesseractWorker {
  recognize(
    image: Buffer,
    options: object,
    output: object,
  ): Promise<{
    data: {
      version?: string;
      blocks:
        | {
            paragraphs: {
              lines: { words: { text: string; bbox: TesseractBbox; confidence: number }[] }[];
            }[];
          }[]
        | null;
    };
  }>;
  setParameters(params: Record<string, string>): Promise<unknown>;
  terminate(): Promise<unknown>;
}
interface TesseractModule {
  createWorker(
    langs: string,
    oem: number,
    options: Record<string, unknown>,
    config?: Record<string, unknown>,
  ): Promise<TesseractWorker>;
  OEM: { LSTM_ONLY: number };
}

/** A tesseract.js worker: load once, recognise several images, close. */
export class TesseractJsSession {
  private worker: TesseractWorker | undefined;
  private starting: Promise<TesseractWorker> | undefined;
  private engineVersion: string | undefined;
  /** How many times the engine was killed: a recognition started before a kill must not go on. */
  private generation = 0;

  constructor(private readonly reading: OcrReading = { kind: "page" }) {}

  /** Recognises the words of a PNG image within `timeoutMs` (loading the engine included). */
  async recognize(png: Uint8Array, timeoutMs: number): Promise<OcrWordPx[]> {
    const generation = this.generation;
    return this.withDeadline(timeoutMs, async () => {
      const worker = await this.start();
      // Killed while it started (the deadline passed): the worker is being terminated, and a job
      // sent to it now would reach a worker that is gone (tesseract.js then throws from nowhere).
      if (this.generation !== generation)
        throw new CiteproofError("EXTRACTION_TIMEOUT", `OCR did not finish within ${timeoutMs} ms`);
      const result = await worker.recognize(
        Buffer.from(png.buffer, png.byteOffset, png.byteLength),
        {},
        { blocks: true, text: false },
      );
      if (result.data.version) this.engineVersion = result.data.version;
      const words: OcrWordPx[] = [];
      let line = 0;
      for (const block of result.data.blocks ?? []) {
        for (const paragraph of block.paragraphs) {
          for (const l of paragraph.lines) {
            for (const w of l.words) {
              const text = w.text.trim();
              if (text.length === 0) continue;
              words.push({ text, ...w.bbox, confidence: w.confidence, line });
            }
            line++;
          }
        }
      }
      return words;
    });
  }

  /** The engine version tesseract.js reports, once a recognition has run. */
  version(): string | undefined {
    return this.engineVersion;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.starting = undefined;
    if (worker) await worker.terminate();
  }

  private start(): Promise<TesseractWorker> {
    if (this.worker) return Promise.resolve(this.worker);
    if (!this.starting) {
      const { folder } = modelFolder();
      this.starting = (async () => {
        let tesseract: TesseractModule;
        try {
          tesseract = require("tesseract.js") as TesseractModule;
        } catch {
          throw new CiteproofError("OCR_UNAVAILABLE", "the OCR engine tesseract.js is not installed");
        }
        const worker = await tesseract.createWorker("eng", tesseract.OEM.LSTM_ONLY, {
          langPath: folder,
          cacheMethod: "none",
          gzip: true,
          // Errors come back as rejected promises; without a handler tesseract.js would throw.
          errorHandler: () => {},
          logger: () => {},
        });
        if (this.reading.kind === "line")
          // Tesseract's page segmentation mode 7: the image is one line of text.
          await worker.setParameters({
            tessedit_pageseg_mode: "7",
            tessedit_char_whitelist: this.reading.characters,
          });
        this.worker = worker;
        return worker;
      })();
    }
    return this.starting;
  }

  private async withDeadline<T>(timeoutMs: number, body: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const expiry = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          void this.kill();
          reject(new CiteproofError("EXTRACTION_TIMEOUT", `OCR did not finish within ${timeoutMs} ms`));
        },
        Math.max(1, timeoutMs),
      );
    });
    try {
      return await Promise.race([
        body().catch((error: unknown) => {
          if (error instanceof CiteproofError) throw error;
          const message = error instanceof Error ? error.message : String(error);
          throw new CiteproofError("OCR_UNAVAILABLE", `OCR failed: ${message.split("\n")[0]}`);
        }),
        expiry,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async kill(): Promise<void> {
    this.generation++;
    const starting = this.starting;
    const worker = this.worker;
    this.worker = undefined;
    this.starting = undefined;
    if (worker) await worker.terminate();
    else if (starting)
      starting.then(
        (w) => w.terminate(),
        () => undefined,
      );
  }
}
