// citeproof: the public library API.

// Prose checks and review sessions.
export {
  checkText,
  citationRecord,
  formatTextCheckReport,
  NOT_VERIFIED,
  POOL_LABEL_MEANINGS,
  POOL_LABELS,
  type PoolLabel,
  type TextCheckReport,
  type TextCitationResult,
} from "./checks/check-text.js";
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
export { verifyPdf } from "./checks/cited-pages-first.js";
// Equations and figures: the anchors decided from page layout, and their checks.
export { checkEquation } from "./checks/equation.js";
export type { EvidenceKind, EvidenceRecord } from "./checks/evidence-record.js";
export { EVIDENCE_KINDS, parseEvidenceJson, validateEvidence } from "./checks/evidence-record.js";
export { checkFigure } from "./checks/figure.js";
export { openForChecks } from "./checks/open-for-checks.js";
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
  checkContextFromRecord,
  checkRecord,
  type VerifyReport,
  verifyEvidence,
} from "./checks/verify.js";
export { CACHE_DIR_ENV, defaultCacheDir, ExtractionCache } from "./document/cache.js";
export { completeDocument } from "./document/complete.js";
export { closeExtractionWorker } from "./document/extraction-worker.js";
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
// evidence runs
export {
  type AcceptedSpan,
  type AssembleOptions,
  type AssemblyResult,
  assembleRun,
  type GateReport,
  type RecordOutcome,
  type RecordStatus,
  type Unresolved,
} from "./evidence/assemble.js";
export { CodePointIndex, codePointLength } from "./evidence/codepoints.js";
export { type EvidenceContext, evidenceContext } from "./evidence/context.js";
export { appendEvent, type EventInput, type EventLog, type RunEvent, readEvents } from "./evidence/events.js";
export { type HtmlText, htmlToText } from "./evidence/html-text.js";
export { PAGE_SEPARATOR, type PageBox, type SpanPlace } from "./evidence/locate.js";
export {
  PREFLIGHT_CODES,
  PREFLIGHT_MEANINGS,
  type PreflightCode,
  type PromoteOptions,
  type PromotionFailure,
  type PromotionReport,
  promoteRun,
} from "./evidence/promote.js";
export {
  ACCESS_LEVELS,
  ACCESS_MEANINGS,
  type AccessLevel,
  CHECK_IDS,
  CHECK_MEANINGS,
  type CheckId,
  CLAIM_VERDICTS,
  type ClaimVerdict,
  EVENT_MEANINGS,
  EVENT_TYPES,
  type EventType,
  isIntegrityFailure,
  JUDGEMENTS,
  type Judgement,
  MAX_READ_CODE_POINTS,
  MAX_SPAN_CODE_POINTS,
  ORIGIN_MEANINGS,
  ORIGINS,
  type Origin,
  REASON_CHECK,
  REASON_CODES,
  REASON_MEANINGS as EVIDENCE_REASON_MEANINGS,
  type ReasonCode,
} from "./evidence/reasons.js";
export { RECORD_FILES } from "./evidence/records.js";
export { createRun, type NewRunOptions, openRun, type RunInfo } from "./evidence/run.js";
export { type SearchOptions, type SpanHit, type SpanSearch, searchSpans } from "./evidence/search.js";
export {
  type Asset,
  buildSnapshot,
  type DocumentMap,
  type PaperIds,
  type Snapshot,
  SnapshotStore,
  sourceIdOf,
  storeSnapshot,
} from "./evidence/snapshot.js";
export {
  type FetchSourceOptions,
  fetchSource,
  type LocalSourceOptions,
  localSource,
  type ReadWindow,
  readSource,
  registerSource,
  type SourceMeta,
  type SourceReceipt,
  searchSource,
} from "./evidence/sources.js";
export { type CheckReport, type VerificationReport, verifyRun } from "./evidence/verify.js";
export {
  type AnchorRef,
  anchorRegion,
  type FoundAnchor,
  findAnchors,
  parseAnchorRef,
} from "./layout/anchor-lookup.js";
export {
  ANCHORS_SCHEMA_VERSION,
  type AnchorsInput,
  type AnchorsOptions,
  type AnchorsRecord,
  computeAnchors,
  documentAnchors,
  type EquationAnchor,
  type FigureAnchor,
  isAnchorsRecord,
  LAYOUT_VERSION,
  openForAnchors,
  type RejectedCaption,
  type RejectedEquationCandidate,
} from "./layout/anchors.js";
export {
  type AnchorPlace,
  anchorRefArg,
  assertBoxOrAnchor,
  assertNonEmptyBox,
  type CropArg,
  type CropNaming,
  clipBox,
  locateAnchor,
  requireCropPage,
} from "./layout/crop-region.js";
export {
  CAPTION_REJECTION_MEANINGS,
  CAPTION_REJECTIONS,
  type CaptionKeyword,
  type CaptionRejection,
} from "./layout/figure-captions.js";
export { isEquationLabel, isFigureLabel, unsupportedEquationLabel } from "./layout/labels.js";
export { REJECTION_MEANINGS, REJECTION_REASONS, type RejectionReason } from "./layout/rejection-reasons.js";
export { OCR_DPI, type OcrPage, type OcrWord, ocrPage } from "./ocr/page-ocr.js";
export { type OcrProvenance, OcrSession, ocrProvenance } from "./ocr/tesseract.js";
export {
  anchorName,
  type CitationForm,
  findCitationForms,
  findUnsupportedForms,
  type ProseAnchor,
  type UnsupportedForm,
} from "./prose/citation-forms.js";
export {
  findQuotedSpans,
  MAX_QUOTATION_CHARS,
  MIN_QUOTATION_CHARS,
  QUOTE_STATUS_MEANINGS,
  QUOTE_STATUSES,
  type QuotedSpan,
  type QuoteStatus,
} from "./prose/quotes.js";
export {
  type DraftReading,
  PROSE_CITATION_KINDS,
  type ProseCitation,
  type ProseCitationKind,
  readDraft,
} from "./prose/read-draft.js";
export { ABBREVIATIONS, type Sentence, splitSentences } from "./prose/sentences.js";
// Interfaces: the HTML report and the agent tools (the MCP server and the pi extension serve these).
export {
  buildReport,
  type Crop,
  DEFAULT_REPORT_DPI,
  type Report,
  type ReportOptions,
  type ReportSection,
} from "./report/build.js";
export { renderReportHtml } from "./report/html.js";
export { type Place, type PlaceKind, placesFor } from "./report/places.js";
export { writeOutputAtomic } from "./report/write.js";
export {
  checkDraft,
  DRAFT_FLAG_MEANINGS,
  DRAFT_FLAGS,
  type DraftCheckReport,
  type DraftFlag,
  type FlaggedCitation,
  formatDraftCheck,
} from "./session/check-draft.js";
export {
  type ClaimComparison,
  COMPARE_CAVEAT,
  COMPARE_OUTCOME_MEANINGS,
  COMPARE_OUTCOMES,
  type CompareOutcome,
  type CompareReport,
  compareRevision,
  formatCompare,
} from "./session/compare.js";
export { type DraftMaterial, draftInput, EMPTY_POOL_LINE, formatDraftInput } from "./session/draft-input.js";
export {
  contextFromExtraction,
  extractionRecord,
  READABLE_EXTRACTION_SCHEMAS,
  type StoredExtraction,
} from "./session/extraction-record.js";
export { SESSION_SCHEMA } from "./session/files.js";
export { DEFAULT_LOCK_TIMEOUT_MS, withSessionLock } from "./session/lock.js";
export {
  addToPool,
  type Claim,
  claimAnchorName,
  type PoolEntry,
  poolLabel,
  readPool,
} from "./session/pool.js";
export {
  addRevision,
  assertOriginal,
  createSession,
  DEFAULT_SESSIONS_DIR,
  findRevision,
  loadExtraction,
  openSession,
  originalContext,
  readStoredPdf,
  type Session,
  type SessionInfo,
  type StoredPdf,
  type StoredRevision,
  sessionDir,
} from "./session/store.js";
export { type SessionVerifyReport, type SessionVerifyResult, verifyInSession } from "./session/verify.js";
export { admitLocalPath } from "./source/allowed-root.js";
export { DEFAULT_MAX_PDF_BYTES, type PdfBytes, readPdfFile, sha256Hex } from "./source/file.js";
export { type FetchedBytes, type FetchOptions, fetchBytes, parseHttpUrl } from "./source/url.js";
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
export { isUnicodeWhitespace, type WhitespaceV1Text, whitespaceV1 } from "./text/whitespace-v1.js";
export { AGENT_TOOLS, type AgentTool, findTool, type ToolEnv, type ToolOutput } from "./tools/index.js";
