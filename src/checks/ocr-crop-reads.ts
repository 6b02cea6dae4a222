/**
 * Readings of regions of a page (label crops, strips, bands) for the equation check, each from the
 * document's cache when read before by the same engine and model at the same resolution, else read
 * and cached. Regions asked for together (`prefetch`) are read by one run of the engine (one process
 * of the system's tesseract) rather than one each; a region asked for later is read from what that
 * run gave. A reading that does not come (the deadline passed, or it failed) is undefined.
 */
import type { Box } from "../document/model.js";
import type { OcrWord } from "../ocr/page-ocr.js";
import { type Region, readRegions } from "../ocr/region-reading.js";
import { type OcrEngineOptions, type OcrSession, ocrProvenance } from "../ocr/tesseract.js";
import { type PdfBytes, sha256Hex } from "../source/file.js";
import type { Deadline } from "../util/deadline.js";
import { derivationKey } from "../util/derivation.js";

export interface CropReadOptions {
  source: PdfBytes;
  cache:
    | { readRecord<T>(key: string): T | undefined; writeRecord(key: string, value: unknown): void }
    | undefined;
  deadline: Deadline;
  password?: string;
  engine?: OcrEngineOptions;
}

export class CropReads {
  private readonly held = new Map<string, Promise<OcrWord[] | undefined>>();

  /**
   * `kind` names the records (`ocr-label`: a label's line, kept as its text; `ocr-rows`: the words
   * of a strip or band read as a page).
   */
  constructor(
    private readonly kind: "ocr-label" | "ocr-rows",
    private readonly session: OcrSession,
    private readonly options: CropReadOptions,
  ) {}

  /** Reads, in one run of the engine, those of the regions neither read before nor cached. */
  async prefetch(regions: readonly Region[]): Promise<void> {
    const toRead: Region[] = [];
    for (const region of regions) {
      const key = this.key(region);
      if (this.held.has(key) || toRead.some((r) => this.key(r) === key)) continue;
      const cached = this.fromCache(key);
      if (cached !== undefined) this.held.set(key, Promise.resolve(cached));
      else toRead.push(region);
    }
    if (toRead.length === 0) return;
    const batch = this.readNow(toRead);
    for (const [i, region] of toRead.entries())
      this.held.set(
        this.key(region),
        batch.then((read) => read?.[i]),
      );
    await batch;
  }

  /** The words of a region (page mode). */
  words(page: number, box: Box, dpi: number): Promise<OcrWord[] | undefined> {
    const region = { page, box, dpi };
    const key = this.key(region);
    const held = this.held.get(key);
    if (held) return held;
    const cached = this.fromCache(key);
    const read = cached !== undefined ? Promise.resolve(cached) : this.readNow([region]).then((r) => r?.[0]);
    this.held.set(key, read);
    return read;
  }

  /** A label crop's line: its words joined without spaces (a label has none). */
  async text(page: number, box: Box, dpi: number): Promise<string | undefined> {
    return (await this.words(page, box, dpi))?.map((w) => w.text).join("");
  }

  private key(region: Region): string {
    const p = ocrProvenance(this.options.engine);
    return `${this.kind}-${p.provider}-${p.provider_version}-${p.model_sha256.slice(0, 16)}-${derivationKey("ocr-region")}-${region.dpi}-p${region.page}-${sha256Hex(JSON.stringify(region.box)).slice(0, 16)}`;
  }

  /** What the cache holds for a region, as words (a label's record keeps its text, one word). */
  private fromCache(key: string): OcrWord[] | undefined {
    const held = this.options.cache?.readRecord<unknown>(key);
    if (this.kind === "ocr-label") {
      const text = (held as { text?: unknown } | undefined)?.text;
      return typeof text === "string" ? [{ text, box: NO_BOX, confidence: 0, line: 0 }] : undefined;
    }
    const words = (held as { words?: unknown } | undefined)?.words;
    return Array.isArray(words) ? (words as OcrWord[]) : undefined;
  }

  private async readNow(regions: Region[]): Promise<OcrWord[][] | undefined> {
    if (this.options.deadline.expired()) return undefined;
    let read: OcrWord[][];
    try {
      read = await readRegions(this.options.source, regions, this.session, {
        timeoutMs: this.options.deadline.remaining(),
        password: this.options.password,
      });
    } catch {
      return undefined;
    }
    regions.forEach((region, i) => {
      const value =
        this.kind === "ocr-label" ? { text: read[i].map((w) => w.text).join("") } : { words: read[i] };
      try {
        this.options.cache?.writeRecord(this.key(region), value);
      } catch {
        // An unwritable cache slows the next run; it never changes a result.
      }
    });
    return read;
  }
}

/** A label's cached line keeps its text only. */
const NO_BOX: Box = { left: 0, bottom: 0, right: 0, top: 0 };
