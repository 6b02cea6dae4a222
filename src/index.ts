// citeproof: the public library API.

export type { EvidenceKind, EvidenceRecord } from "./checks/evidence-record.js";
export { EVIDENCE_KINDS, parseEvidenceJson, validateEvidence } from "./checks/evidence-record.js";
export { checkPage } from "./checks/page.js";
export { checkQuotation, type QuotationInput } from "./checks/quotation.js";
export type { CheckResult } from "./checks/result.js";
export {
  MIN_QUOTATION_WORDS,
  REASON_MEANINGS,
  REASONS,
  type Reason,
  VERDICT_MEANINGS,
  VERDICTS,
  type Verdict,
} from "./checks/verdicts.js";
export {
  type CheckContext,
  checkContext,
  checkRecord,
  type VerifyReport,
  verifyEvidence,
} from "./checks/verify.js";
export { CACHE_DIR_ENV, defaultCacheDir, ExtractionCache } from "./document/cache.js";
export * from "./document/model.js";
export {
  assertPageInRange,
  DEFAULT_TIMEOUT_MS,
  type OpenedDocument,
  type OpenOptions,
  openDocument,
  pageGeometry,
} from "./document/open.js";
export {
  closeRenderer,
  DEFAULT_RENDER_DPI,
  deviceBoxToUser,
  deviceToUser,
  type RenderedRegion,
  type RenderOptions,
  type RenderTransform,
  renderRegion,
  userBoxToDevice,
  userToDevice,
} from "./document/render.js";
export { CiteproofError, ERROR_CODES, type ErrorCode, isCiteproofError } from "./errors.js";
export { DEFAULT_MAX_PDF_BYTES, type PdfBytes, readPdfFile, sha256Hex } from "./source/file.js";
export { closestLine } from "./text/closest-line.js";
export {
  countWords,
  type FoldedText,
  type FoldOptions,
  fold,
  type HyphenReading,
  skeleton,
} from "./text/fold.js";
export { FoldedPages, type PageMatch } from "./text/folded-pages.js";
export { CITE_CHECK_LIMITS } from "./checks/cite-check/limits.js";
export type { CiteLocation } from "./checks/cite-check/locations.js";
export {
  type Citation,
  type CitationBox,
  type CiteCheckInput,
  type CiteSource,
  parseCitations,
  parseCiteCheckRequest,
  parseOptions as parseCiteCheckOptions,
} from "./checks/cite-check/request.js";
export type { CiteCheckReport, CiteCheckResult, EvidenceLayer } from "./checks/cite-check/result.js";
export { type CiteCheckOptions, citeCheck } from "./checks/cite-check/run.js";
export {
  CITE_REASON_MEANINGS,
  CITE_REASON_VERDICT,
  CITE_REASONS,
  CITE_VERDICT_MEANINGS,
  CITE_VERDICTS,
  type CiteReason,
  type CiteVerdict,
  GEOMETRY_LEVELS,
  type GeometryLevel as CiteGeometryLevel,
  NORMALIZATIONS,
  type Normalization,
  OCR_MODE_MEANINGS,
  OCR_MODES,
  type OcrMode,
} from "./checks/cite-check/verdicts.js";
export { OCR_DPI, type OcrPage, type OcrWord, ocrPage } from "./ocr/page-ocr.js";
export { type OcrProvenance, OcrSession, ocrProvenance } from "./ocr/tesseract.js";
export { admitLocalPath } from "./source/allowed-root.js";
export { isUnicodeWhitespace, type WhitespaceV1Text, whitespaceV1 } from "./text/whitespace-v1.js";
