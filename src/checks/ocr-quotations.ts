/**
 * OCR for the quotation check (verify, check-text): cited pages whose words are an image are read
 * by OCR (mode `auto`: layer none or sparse-over-image; mode `tesseract`: also pages where the text
 * layer gave no PASS), and the quotation is looked for in that reading. A PASS on OCR text says so,
 * with the engine, the model and the render resolution, because OCR can misread. A page whose
 * image is too large to render safely is refused, with a coded reason, never tried.
 */

import type { PageText } from "../document/model.js";
import type { OpenedDocument } from "../document/open.js";
import { everyPage } from "../document/page-source.js";
import { holdRenderer } from "../document/render.js";
import type { OcrPage } from "../ocr/page-ocr.js";
import { type OcrEngineOptions, ocrProvenance } from "../ocr/tesseract.js";
import { fold } from "../text/fold.js";
import { FoldedPages } from "../text/folded-pages.js";
import { Deadline } from "../util/deadline.js";
import { type OcrOutcome, ocrPages } from "./cite-check/ocr-evidence.js";
import { ocrLayer } from "./cite-check/ocr-layer.js";
import type { OcrMode } from "./cite-check/verdicts.js";
import { cutByDeadline } from "./deadline-cut.js";
import type { EvidenceRecord } from "./evidence-record.js";
import { applyEquationOcr } from "./ocr-equations.js";
import type { CheckResult } from "./result.js";
import { ocrAdvice } from "./setting-names.js";
import type { CheckContext } from "./verify.js";
import { withEvidence } from "./with-evidence.js";

/** Reasons under which OCR may still find the words: the page's text layer did not hold them. */
const OCR_MAY_HELP = new Set(["no-text-layer", "absent", "form-differs", "wrong-page"]);

/** The OCR deadline when none is given: OCR of a page takes seconds. */
export const DEFAULT_OCR_TIMEOUT_MS = 120_000;

export interface QuotationOcrOptions {
  mode: OcrMode;
  /** The document the pages are rendered from (its hashed bytes) and whose cache keeps the readings. */
  doc: Pick<OpenedDocument, "source" | "cache">;
  /** Deadline for all OCR together, in milliseconds. */
  timeoutMs: number;
  password?: string;
  /** Which engine reads (default: the system's tesseract when installed). */
  engine?: OcrEngineOptions;
}

/** Whether a quotation's result calls for OCR of its page under the mode. */
export function wantsOcr(mode: OcrMode, result: CheckResult): boolean {
  if (result.kind !== "quotation" || typeof result.evidence.page !== "number") return false;
  if (result.reason === "no-text-layer") return true;
  return mode === "tesseract" && OCR_MAY_HELP.has(result.reason);
}

/**
 * The results with OCR applied where the mode asks: quotations on their cited pages, then equation
 * labels the text layer left unresolved on the document's scanned pages, under one deadline. Throws OCR_UNAVAILABLE (naming the package)
 * when OCR is needed but its engine or model cannot load.
 */
export async function applyOcr(
  context: CheckContext,
  records: readonly EvidenceRecord[],
  results: readonly CheckResult[],
  options: QuotationOcrOptions,
): Promise<CheckResult[]> {
  const deadline = new Deadline(options.timeoutMs);
  // A page the quotations had read is not read again for the labels, cache or none.
  const read = new Map<number, OcrPage>();
  // The pages and crops are rendered by one engine worker, not one each.
  const release = holdRenderer();
  try {
    const quoted = await applyQuotationOcr(context, records, results, options, deadline, read);
    return await applyEquationOcr(everyPage(context.pages.pages), quoted, {
      doc: options.doc,
      deadline,
      read,
      ...(options.password !== undefined ? { password: options.password } : {}),
      ...(options.engine !== undefined ? { engine: options.engine } : {}),
    });
  } finally {
    release();
  }
}

async function applyQuotationOcr(
  context: CheckContext,
  records: readonly EvidenceRecord[],
  results: readonly CheckResult[],
  options: QuotationOcrOptions,
  deadline: Deadline,
  read: Map<number, OcrPage>,
): Promise<CheckResult[]> {
  const wanted = results.map((r) => wantsOcr(options.mode, r));
  if (!wanted.some(Boolean)) return [...results];
  const provenance = ocrProvenance(options.engine);
  const pages = [...new Set(results.filter((_, i) => wanted[i]).map((r) => r.evidence.page as number))];
  const outcomes = await ocrPages(options.doc.source, pages, {
    engine: options.engine,
    read,
    deadline,
    cache: options.doc.cache,
    password: options.password,
    imagePixels: (page) => context.pages.pages.get(page)?.largestImagePixels ?? 0,
  });
  return results.map((result, i) => {
    const record = records[i];
    if (!wanted[i] || record.kind !== "quotation") return result;
    const page = result.evidence.page as number;
    const outcome = outcomes.get(page) as OcrOutcome;
    const pageText = context.pages.pages.get(page);
    // Not decided: the deadline passed before OCR read the page.
    if (outcome.state === "cut")
      return cutByDeadline(withOcrNote(result, outcome, provenance.provider), {
        limitMs: deadline.totalMs,
        step: "OCR",
        pagesNotRead: [page],
      });
    if (outcome.state !== "ok" || !pageText) return withOcrNote(result, outcome, provenance.provider);
    return onOcrText(result, record.text, pageText, outcome.ocr);
  });
}

/** The quotation looked for in the page's OCR reading: a PASS that says so, or the result with a note. */
function onOcrText(result: CheckResult, quoted: string, pageText: PageText, ocr: OcrPage): CheckResult {
  const page = pageText.page;
  const text = ocrLayer(ocr).text;
  // A word cut at a line's end (`as-` / `sume`) reads both ways, joined and kept, as in a text layer.
  const reading: PageText = {
    ...pageText,
    text,
    lines: [],
    lineEndHyphensUtf16: lineEndHyphens(text),
    scriptBreaksUtf16: [],
  };
  const pages = new FoldedPages(
    Object.assign(new Array<PageText | undefined>(page), { [page - 1]: reading }),
  );
  const matches = pages.findOnPage(page, fold(quoted, { trim: true }).text);
  const source = {
    provider: ocr.provenance.provider,
    provider_version: ocr.provenance.provider_version,
    model_package: ocr.provenance.model_package,
    model_file: ocr.provenance.model_file,
    model_sha256: ocr.provenance.model_sha256,
    dpi: ocr.render.dpi,
    png_sha256: ocr.render.png_sha256,
  };
  const said = `${source.provider} ${source.provider_version}, ${source.model_package} ${source.model_file}, ${source.dpi} dpi`;
  if (matches.length === 0) {
    // OCR has run: the message no longer suggests it.
    return withEvidence(
      result,
      { ocr: { ...source, found: false } },
      `${result.message.replace(ocrAdvice(), "")}; OCR of the page (${said}) did not find the words either`,
    );
  }
  return {
    ...(result.id !== undefined ? { id: result.id } : {}),
    kind: result.kind,
    verdict: "PASS",
    reason: "found",
    message: `found on page ${page} in its OCR text (${said}), which can misread: the page's text layer did not hold the words`,
    evidence: {
      quotation: quoted,
      page,
      layer: "ocr",
      textLayer: result.evidence.layer,
      ocr: source,
      matches: matches.map((m) => ({
        startUtf16: m.startUtf16,
        endUtf16: m.endUtf16,
        text: text.slice(m.startUtf16, m.endUtf16),
      })),
    },
  };
}

function withOcrNote(result: CheckResult, outcome: OcrOutcome, provider: string): CheckResult {
  const why =
    outcome.state === "refused"
      ? `OCR refused: ${outcome.message} [${outcome.code}]`
      : outcome.state === "cut"
        ? "OCR did not finish before the deadline"
        : outcome.state === "unavailable"
          ? `OCR could not run: ${outcome.message}`
          : "";
  const ocr =
    outcome.state === "refused"
      ? { provider, refused: outcome.code }
      : { provider, unavailable: outcome.state === "cut" ? "deadline" : why };
  return withEvidence(result, { ocr }, `${result.message}; ${why}`);
}

/**
 * The hyphens that end a line of an OCR reading (a `-` right before the line break): OCR keeps a
 * typesetter's hyphenation as printed, and the check tries each both joined and kept, as it does the
 * hyphens a text layer flags.
 */
export function lineEndHyphens(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf("-\n"); i >= 0; i = text.indexOf("-\n", i + 1)) out.push(i);
  return out;
}
