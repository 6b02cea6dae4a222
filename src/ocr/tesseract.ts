/**
 * Offline OCR with tesseract.js and the English model shipped in @tesseract.js-data/eng: the model
 * is always read from that package's folder (never downloaded, never cached elsewhere). Each call
 * runs under a deadline; on expiry the OCR worker thread is terminated.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { CiteproofError } from "../errors.js";

const require = createRequire(import.meta.url);

/** The LSTM model, integer-quantised from the "best" models: the package's smaller folder. */
const MODEL_FOLDER = "4.0.0_best_int";

/** Where the OCR came from: engine, versions and the model file, for the evidence record. */
export interface OcrProvenance {
  provider: "tesseract.js";
  provider_version: string;
  /** The Tesseract engine version tesseract.js reports (filled after the first recognition). */
  engine_version?: string;
  language: "eng";
  model_package: string;
  model_file: string;
  /** sha256 of the gzip-compressed traineddata file read. */
  model_sha256: string;
}

/** One recognised word, in the image's pixels (x right, y down; edges, not pixel centres). */
export interface OcrWordPx {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  confidence: number;
  /** Index of the line the word belongs to, in reading order. */
  line: number;
}

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

let provenanceHeld: OcrProvenance | undefined;

function modelFolder(): { folder: string; packageVersion: string } {
  let pkgJson: string;
  try {
    pkgJson = require.resolve("@tesseract.js-data/eng/package.json");
  } catch {
    throw new CiteproofError(
      "OCR_UNAVAILABLE",
      "the OCR model package @tesseract.js-data/eng is not installed",
    );
  }
  const version = (JSON.parse(readFileSync(pkgJson, "utf8")) as { version: string }).version;
  return { folder: join(dirname(pkgJson), MODEL_FOLDER), packageVersion: version };
}

/** Provenance of the OCR engine and model; throws OCR_UNAVAILABLE when either is missing. */
export function ocrProvenance(): OcrProvenance {
  if (provenanceHeld) return provenanceHeld;
  const { folder, packageVersion } = modelFolder();
  const file = join(folder, "eng.traineddata.gz");
  let model: Buffer;
  try {
    model = readFileSync(file);
  } catch {
    throw new CiteproofError(
      "OCR_UNAVAILABLE",
      `the OCR model ${file} of the package @tesseract.js-data/eng cannot be read`,
    );
  }
  let providerVersion: string;
  try {
    providerVersion = (
      JSON.parse(readFileSync(require.resolve("tesseract.js/package.json"), "utf8")) as { version: string }
    ).version;
  } catch {
    throw new CiteproofError("OCR_UNAVAILABLE", "the OCR engine tesseract.js is not installed");
  }
  provenanceHeld = {
    provider: "tesseract.js",
    provider_version: providerVersion,
    language: "eng",
    model_package: `@tesseract.js-data/eng@${packageVersion}`,
    model_file: `${MODEL_FOLDER}/eng.traineddata.gz`,
    model_sha256: createHash("sha256").update(model).digest("hex"),
  };
  return provenanceHeld;
}

/**
 * How an OCR session reads its images: a whole page laid out by the engine, or one line of text
 * drawn only from the characters given (an equation label read again from a crop of the page).
 */
export type OcrReading = { kind: "page" } | { kind: "line"; characters: string };

/** An OCR engine instance: load once, recognise several images, close. */
export class OcrSession {
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

  /** Provenance including the engine version once a recognition has run. */
  provenance(): OcrProvenance {
    const base = ocrProvenance();
    return this.engineVersion ? { ...base, engine_version: this.engineVersion } : base;
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
      ocrProvenance();
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
