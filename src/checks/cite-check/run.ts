/**
 * The located quote check, start to end: admit the source and hash it; settle the expected hash
 * before anything is extracted; extract only the cited pages; OCR where asked; decide each
 * citation; hold the output to its budget.
 */

import type { OcrEngineChoice } from "../../ocr/tesseract.js";
import type { PathAccess } from "../../source/allowed-root.js";
import { Deadline } from "../../util/deadline.js";
import { admitSource } from "./admit-source.js";
import { applyOutputBudget } from "./budget.js";
import { decide, nativeOutcome, PageLayers, wantsOcr } from "./decide.js";
import { resultMessage } from "./messages.js";
import { type OcrOutcome, ocrPages } from "./ocr-evidence.js";
import { extractCitedPages } from "./page-evidence.js";
import type { CiteCheckInput } from "./request.js";
import type { CiteCheckReport, CiteCheckResult } from "./result.js";
import { CITE_REASON_MEANINGS, CITE_REASON_VERDICT, CITE_VERDICTS, type CiteVerdict } from "./verdicts.js";

export interface CiteCheckOptions {
  /**
   * Roots a local source may resolve into (symlinks resolved); the working directory when empty;
   * "anywhere" for a path a person typed on the command line.
   */
  allowRoots?: PathAccess;
  cacheDir?: string;
  noCache?: boolean;
  password?: string;
  /** Whether a URL on a loopback, private or link-local address is fetched (default "allow"). */
  privateUrls?: "allow" | "refuse";
  /** Which OCR engine reads (default auto: the system's tesseract when installed, else tesseract.js). */
  ocrEngine?: OcrEngineChoice;
}

export async function citeCheck(
  input: CiteCheckInput,
  options: CiteCheckOptions = {},
): Promise<CiteCheckReport> {
  const deadline = new Deadline(input.timeoutMs);
  const source = await admitSource(input.source, {
    allowRoots: options.allowRoots,
    deadline,
    privateUrls: options.privateUrls,
  });
  const report: CiteCheckReport = {
    operation: "cite_check",
    source: { origin: source.origin, sha256: source.sha256, pages: null, bytes: source.bytes.byteLength },
    options: {
      normalization: input.normalization,
      ocr: input.ocr ?? null,
      timeout_ms: input.timeoutMs,
      max_output_chars: input.maxOutputChars,
    },
    results: [],
    summary: Object.fromEntries(CITE_VERDICTS.map((v) => [v, 0])) as Record<CiteVerdict, number>,
    output_chars: 0,
    extracted_pages: 0,
    ocr_pages: [],
  };

  if (input.expectedSha256 !== undefined && input.expectedSha256 !== source.sha256) {
    report.results = input.citations.map((c) => ({
      ...(c.id !== undefined ? { id: c.id } : {}),
      verdict: "insufficient_evidence",
      reason: "source_hash_mismatch",
      message: `${CITE_REASON_MEANINGS.source_hash_mismatch} (expected ${input.expectedSha256}, got ${source.sha256})`,
      page: c.page,
      source_sha256: source.sha256,
      locations: [],
      evidence_layer: null,
    }));
    return finish(report);
  }

  const cited = await extractCitedPages(
    source,
    input.citations.map((c) => c.page),
    { cacheDir: options.cacheDir, noCache: options.noCache, password: options.password, deadline },
  );
  report.source.pages = cited.pageCount ?? null;
  report.extracted_pages = cited.extractedPages;

  const layers = new PageLayers();
  const native = input.citations.map((c) =>
    nativeOutcome(c, cited.pages.get(c.page)!, input.normalization, layers),
  );
  const toOcr: number[] = [];
  for (const [page, evidence] of cited.pages) {
    const readings = input.citations.flatMap((c, i) => (c.page === page ? [native[i]] : []));
    if (wantsOcr(input.ocr, evidence, readings)) toOcr.push(page);
  }
  report.ocr_pages = toOcr.sort((a, b) => a - b);
  const ocr: Map<number, OcrOutcome> = await ocrPages(source, toOcr, {
    ...(options.ocrEngine !== undefined ? { engine: { engine: options.ocrEngine } } : {}),
    deadline,
    cache: cited.cache,
    password: options.password,
    imagePixels: (page) => {
      const evidence = cited.pages.get(page);
      return evidence?.state === "ok" ? (evidence.text.largestImagePixels ?? 0) : 0;
    },
  });

  report.results = input.citations.map((c, i): CiteCheckResult => {
    const evidence = cited.pages.get(c.page)!;
    const decision = decide(c, evidence, native[i], ocr.get(c.page), input.normalization, layers);
    return {
      ...(c.id !== undefined ? { id: c.id } : {}),
      verdict: CITE_REASON_VERDICT[decision.reason],
      reason: decision.reason,
      message: resultMessage(c, decision, cited.pageCount),
      page: c.page,
      source_sha256: source.sha256,
      locations: decision.locations,
      evidence_layer: decision.layer,
      ...(decision.elsewhere ? { found_elsewhere: decision.elsewhere } : {}),
    };
  });
  report.output_chars = applyOutputBudget(report.results, input.maxOutputChars);
  return finish(report);
}

function finish(report: CiteCheckReport): CiteCheckReport {
  for (const r of report.results) report.summary[r.verdict]++;
  return report;
}
