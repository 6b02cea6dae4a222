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
