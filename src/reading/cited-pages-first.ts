/**
 * Checking against the cited pages first: the document is opened for the pages the records name,
 * each record is checked against a context that holds only those pages, and the rest of the
 * document is read only for the records whose check reached for a page not read (a quotation not
 * on its page is looked for on every other page); see held-pages.ts. Results kept from earlier runs
 * answer their records first. The checks' code is loaded only when something is left to check, and
 * when nothing of the document is in the cache the engine worker is started before it loads, so
 * the worker's start and the engine's compile overlap that load.
 */

import type { OcrMode } from "../checks/cite-check/verdicts.js";
import type { EvidenceRecord } from "../checks/evidence-record.js";
import type { CheckResult } from "../checks/result.js";
import type { VerifyReport } from "../checks/verify.js";
import type { OpenOptions } from "../document/open.js";
import { documentCache, pdfSource } from "../document/pdf-bytes.js";
import type { AnchorsOptions } from "../layout/anchors.js";
import type { OcrEngineChoice } from "../ocr/tesseract.js";
import type { PdfBytes } from "../source/file.js";
import { keptResultsIn, resultsRecordName } from "./result-cache.js";

export type VerifyOptions = OpenOptions &
  AnchorsOptions & {
    /** OCR of cited pages whose words are an image (auto), or also where the text gave no PASS (tesseract). */
    ocr?: OcrMode;
    /** Which OCR engine reads (default auto: the system's tesseract when installed, else tesseract.js). */
    ocrEngine?: OcrEngineChoice;
  };

/**
 * Verifies evidence records against a PDF, reading the cited pages first and the rest of the
 * document only when a record needs it. Equation and figure records need the anchors, decided over
 * every page: then the document is opened whole, with the geometry they are decided from.
 */
export async function verifyPdf(
  input: string | PdfBytes,
  records: EvidenceRecord[],
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  if (records.some((r) => r.kind === "equation" || r.kind === "figure")) {
    const { verifyWithAnchors } = await import("./held-pages.js");
    return verifyWithAnchors(input, records, options);
  }
  const source = await pdfSource(input, options);
  // Results kept from earlier runs answer their records; OCR reads more than the text layer.
  const cache = options.ocr ? undefined : documentCache(source.sha256, options);
  const pageCount = cache?.readDoc()?.pageCount;
  // Nothing of the document is cached: it will be extracted.
  if (pageCount === undefined) (await import("../document/engine-client.js")).engine().prestart();
  const kept = cache && keptResultsIn(cache, resultsRecordName());
  const results: (CheckResult | undefined)[] = records.map((record) => kept?.get(record));
  if (pageCount !== undefined && results.every((r) => r !== undefined))
    return { document: { sha256: source.sha256, pages: pageCount }, results: results as CheckResult[] };
  const { checkCitedPagesFirst } = await import("./held-pages.js");
  return checkCitedPagesFirst(source, records, results, kept, options);
}
