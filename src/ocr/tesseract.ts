/**
 * Offline OCR: the system's `tesseract` program when it is installed (system-tesseract.ts), else
 * tesseract.js (tesseract-js.ts), both reading the English LSTM model of @tesseract.js-data/eng
 * (model.ts). Which engine reads is chosen per session from its options (`engine`), never from
 * process-wide state; the provenance names the engine, its version and the model file's sha256,
 * and readings are cached under keys that name the engine, so two engines' readings never mix.
 */
import { availableParallelism } from "node:os";
import { CiteproofError } from "../errors.js";
import { MODEL_FOLDER, modelFile, tesseractJsVersion, unpackedModel } from "./model.js";
import { findSystemTesseract, type SystemTesseract, SystemTesseractRun } from "./system-tesseract.js";
import { TesseractJsSession } from "./tesseract-js.js";

/** Which engine reads: the system's `tesseract` when installed (auto), or one of them only. */
export const OCR_ENGINES = ["auto", "tesseract", "tesseract.js"] as const;
export type OcrEngineChoice = (typeof OCR_ENGINES)[number];

/** Counts what an OCR session asks of its engine: runs (a process, or a worker job) and images read. */
export interface OcrCounter {
  runs: number;
  images: number;
}

export interface OcrEngineOptions {
  /** Default: $CITEPROOF_OCR_ENGINE, else `auto`. */
  engine?: OcrEngineChoice;
  /** The folders `tesseract` is looked for in (default: the PATH). */
  searchPath?: string;
  /** Counted into when given: what the session asked of its engine. */
  counter?: OcrCounter;
}

/** Where the OCR came from: engine, versions and the model file, for the evidence record. */
export interface OcrProvenance {
  /** `tesseract`: the system's program; `tesseract.js`: Tesseract compiled to WebAssembly. */
  provider: "tesseract" | "tesseract.js";
  provider_version: string;
  /** The Tesseract engine version (tesseract.js: filled after the first recognition). */
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

/**
 * How an OCR session reads its images: a whole page laid out by the engine, or one line of text
 * drawn only from the characters given (an equation label read again from a crop of the page).
 */
export type OcrReading = { kind: "page" } | { kind: "line"; characters: string };

type Engine = { kind: "tesseract"; program: SystemTesseract } | { kind: "tesseract.js" };

/** The engine asked for: the option, else $CITEPROOF_OCR_ENGINE, else auto. */
export function ocrEngineChoice(
  option: OcrEngineChoice | undefined,
  env: NodeJS.ProcessEnv = process.env,
): OcrEngineChoice {
  if (option !== undefined) return option;
  const raw = env.CITEPROOF_OCR_ENGINE;
  if (raw === undefined || raw === "") return "auto";
  if (!(OCR_ENGINES as readonly string[]).includes(raw))
    throw new CiteproofError(
      "USAGE",
      `$CITEPROOF_OCR_ENGINE must be one of ${OCR_ENGINES.join(", ")} (got ${JSON.stringify(raw.slice(0, 40))})`,
    );
  return raw as OcrEngineChoice;
}

/** The engine the options choose; throws OCR_UNAVAILABLE when `tesseract` is asked for and absent. */
function chooseEngine(options: OcrEngineOptions): Engine {
  const choice = ocrEngineChoice(options.engine);
  if (choice === "tesseract.js") return { kind: "tesseract.js" };
  const program = findSystemTesseract(options.searchPath ?? process.env.PATH);
  if (program) return { kind: "tesseract", program };
  if (choice === "tesseract")
    throw new CiteproofError(
      "OCR_UNAVAILABLE",
      "the OCR engine tesseract (the system's program) is not installed",
    );
  return { kind: "tesseract.js" };
}

/** Provenance of the engine the options choose and of the model; throws OCR_UNAVAILABLE when either is missing. */
export function ocrProvenance(options: OcrEngineOptions = {}): OcrProvenance {
  const engine = chooseEngine(options);
  const model = modelFile();
  const base = {
    language: "eng" as const,
    model_package: `@tesseract.js-data/eng@${model.packageVersion}`,
    model_file: `${MODEL_FOLDER}/eng.traineddata.gz`,
    model_sha256: model.sha256,
  };
  if (engine.kind === "tesseract")
    return {
      provider: "tesseract",
      provider_version: engine.program.version,
      engine_version: engine.program.version,
      ...base,
    };
  return { provider: "tesseract.js", provider_version: tesseractJsVersion(), ...base };
}

/** An OCR engine instance: load once, recognise several images, close. */
export class OcrSession {
  private readonly engine: Engine;
  private readonly js: TesseractJsSession | undefined;
  private readonly system: SystemTesseractRun | undefined;

  constructor(
    reading: OcrReading = { kind: "page" },
    private readonly options: OcrEngineOptions = {},
  ) {
    this.engine = chooseEngine(options);
    if (this.engine.kind === "tesseract")
      this.system = new SystemTesseractRun(
        this.engine.program,
        unpackedModel,
        reading.kind === "page" ? { psm: "6" } : { psm: "7", whitelist: reading.characters },
      );
    else this.js = new TesseractJsSession(reading);
  }

  /** How many batches may run at once: the system's program one process each, on the cores there are. */
  parallel(): number {
    return this.system ? Math.max(1, Math.min(2, availableParallelism())) : 1;
  }

  /** Whether several images go to one run of the engine (one process), rather than one after the other. */
  readsInBatches(): boolean {
    return this.system !== undefined;
  }

  /** Recognises the words of a PNG image within `timeoutMs` (loading the engine included). */
  async recognize(png: Uint8Array, timeoutMs: number): Promise<OcrWordPx[]> {
    return (await this.recognizeAll([png], timeoutMs))[0];
  }

  /**
   * Recognises the words of each PNG within `timeoutMs` for them all: the system's program in one
   * process, tesseract.js one image after the other.
   */
  async recognizeAll(pngs: readonly Uint8Array[], timeoutMs: number): Promise<OcrWordPx[][]> {
    if (pngs.length === 0) return [];
    const counter = this.options.counter;
    if (this.system) {
      if (counter) {
        counter.runs++;
        counter.images += pngs.length;
      }
      return this.system.recognize(pngs, timeoutMs);
    }
    const js = this.js as TesseractJsSession;
    const started = Date.now();
    const out: OcrWordPx[][] = [];
    for (const png of pngs) {
      if (counter) {
        counter.runs++;
        counter.images++;
      }
      out.push(await js.recognize(png, Math.max(1, timeoutMs - (Date.now() - started))));
    }
    return out;
  }

  /** Provenance including the engine version once a recognition has run. */
  provenance(): OcrProvenance {
    const base = ocrProvenance(this.options);
    const version = this.js?.version();
    return version ? { ...base, engine_version: version } : base;
  }

  async close(): Promise<void> {
    this.system?.close();
    if (this.js) await this.js.close();
  }
}
