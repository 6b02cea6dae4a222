// biome-ignore-all assist/source/organizeImports: the entry is grouped by what a caller does (as pdf.js groups its own), not sorted.
/**
 * citeproof: the public library API, grouped by what a caller does. The operations come first; the
 * layers below them are exported for callers that compose their own flow. Internals (geometry helpers,
 * file writers, caches, parsers of one interface) are not exported; test/api/exports.test.ts pins the list.
 */

// Operations: each thing citeproof does, with its input schema, run, format and exit code; the CLI, the MCP
// server and the pi extension are adapters over these.
export { type AgentOutput, callOperation, runWithArgs } from "./operations/agent-call.js";
export { type OperationOutcome, runOperation } from "./operations/run-operation.js";
export { type AnchorsReport, anchorsOperation } from "./operations/anchors.js";
export { type CheckTextInput, checkTextOperation } from "./operations/check-text.js";
export { type CiteCheckRequest, checkCitations, citeCheckOperation } from "./operations/cite-check.js";
export { type CropInput, type CropResult, cropOperation } from "./operations/crop.js";
export { AGENT_OPERATIONS, OPERATIONS } from "./operations/index.js";
export { type LocateInput, locateOperation } from "./operations/locate.js";
export { parseInput } from "./util/parse-input.js";
export type {
  AnyOperation,
  InputSchema,
  Operation,
  OperationContext,
  OperationImage,
} from "./operations/operation.js";
export { type ReportInput, type ReportResult, reportOperation } from "./operations/report.js";
export { type VerifyInput, verifyOperation } from "./operations/verify.js";

// Errors: closed codes with structured details.
export {
  CiteproofError,
  ERROR_CODES,
  type ErrorCode,
  type ErrorDetails,
  type InputIssue,
  isCiteproofError,
  type Naming,
  renderMessage,
} from "./errors.js";
export {
  type DetailsOf,
  ERROR_DETAILS,
  type ErrorDocument,
  errorDocument,
} from "./error-document.js";

// Documents: opening a PDF (text layer, geometry, cache), rendering a place of a page, the bytes.
export { CACHE_DIR_ENV, defaultCacheDir } from "./document/cache.js";
export { closeEngine as closeExtractionWorker } from "./document/engine-client.js";
export * from "./document/model.js";
export { DEFAULT_TIMEOUT_MS, type OpenedDocument, type OpenOptions, openDocument } from "./document/open.js";
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
export {
  DEFAULT_MAX_PDF_BYTES,
  type PdfBytes,
  readPdfFile,
  readSourceFile,
  sha256Hex,
} from "./source/file.js";

// Flow sources (HTML, XHTML, Markdown, text, EPUB, DOCX, ODT, JATS): the kind from the bytes, the parsed
// document (text in reading order, headings, blocks with code-point offsets), cached by sha256.
export { DEFAULT_FLOW_LIMITS, FLOW_BLOCK_KINDS, FLOW_KINDS, FLOW_REGIONS } from "./document/flow/model.js";
export type {
  FlowBlock,
  FlowBlockKind,
  FlowDocument,
  FlowHeading,
  FlowKind,
  FlowLabel,
  FlowLimits,
  FlowRegion,
  SourceBytes,
  SourceKind,
} from "./document/flow/model.js";
export { type FlowOpenOptions, openFlow, sourceKind } from "./document/flow/open.js";

// Checks: evidence records and their verdicts, quotations, pages, equations, figures.
export { verifyPdf } from "./reading/cited-pages-first.js";
export { checkEquation } from "./checks/equation.js";
export {
  type LocatedPart,
  type LocateReport,
  locatePdf,
  locateWords,
  MAX_LOCATED,
  type Occurrence,
} from "./checks/locate.js";
export type { EvidenceKind, EvidenceRecord } from "./checks/evidence-record.js";
export { EVIDENCE_KINDS, parseEvidenceJson, validateEvidence } from "./checks/evidence-record.js";
export { checkFigure } from "./checks/figure.js";
export { openForChecks } from "./reading/open-for-checks.js";
export { checkPage } from "./checks/page.js";
export { checkQuotation, type QuotationInput } from "./checks/quotation.js";
export { type CheckResult, type CheckResultOf, checkResultSchema, EVIDENCE_SHAPES } from "./checks/result.js";
export {
  MIN_QUOTATION_WORDS,
  REASON_MEANINGS,
  REASON_VERDICTS,
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
export { type FlowTextCheckReport, checkTextFlow } from "./checks/flow-check-text.js";
export { type FlowLocateReport, type FlowOccurrence, locateInFlow } from "./checks/flow-locate.js";
export type { FlowMatchEvidence } from "./checks/flow-quotation.js";
export { type FlowVerifyReport, verifyFlow } from "./checks/flow-verify.js";

// Located quotes (cite-check).
export { CITE_CHECK_LIMITS } from "./checks/cite-check/limits.js";
export {
  type Citation,
  type CitationBox,
  type CiteCheckInput,
  type CiteSource,
  parseCiteCheckRequest,
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

// Equation labels and figure captions.
export {
  type AnchorRef,
  anchorRegion,
  type FoundAnchor,
  findAnchors,
  parseAnchorRef,
} from "./layout/anchor-lookup.js";
export {
  type AnchorsOptions,
  type AnchorsRecord,
  documentAnchors,
  type EquationAnchor,
  type FigureAnchor,
  openForAnchors,
  type RejectedCaption,
  type RejectedEquationCandidate,
} from "./layout/anchors.js";
export {
  CAPTION_REJECTION_MEANINGS,
  CAPTION_REJECTIONS,
  type CaptionKeyword,
  type CaptionRejection,
} from "./layout/figure-captions.js";
export { REJECTION_MEANINGS, REJECTION_REASONS, type RejectionReason } from "./layout/rejection-reasons.js";

// Text: the matching profiles.
export { type FoldedText, type FoldOptions, fold, type HyphenReading, skeleton } from "./text/fold.js";
export { FoldedPages, type PageMatch } from "./text/folded-pages.js";
export { isUnicodeWhitespace, type WhitespaceV1Text, whitespaceV1 } from "./text/whitespace-v1.js";

// Prose: citations written in a draft, and checking them.
export {
  checkText,
  formatTextCheckReport,
  NOT_VERIFIED,
  POOL_LABEL_MEANINGS,
  POOL_LABELS,
  type PoolLabel,
  type TextCheckReport,
  type TextCitationResult,
} from "./checks/check-text.js";
export {
  type CitationForm,
  findCitationForms,
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
export { type Sentence, splitSentences } from "./prose/sentences.js";

// The HTML report.
export {
  buildReport,
  type Crop,
  DEFAULT_REPORT_DPI,
  type Report,
  type ReportOptions,
  type ReportSection,
} from "./report/build.js";
export { renderReportHtml } from "./report/html.js";

// Review sessions.
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
export { addToPool, type Claim, type PoolEntry, readPool } from "./session/pool.js";
export {
  addRevision,
  createSession,
  DEFAULT_SESSIONS_DIR,
  findRevision,
  openSession,
  type Session,
  type SessionInfo,
  type StoredPdf,
  type StoredRevision,
  sessionDir,
} from "./session/store.js";
export { type SessionVerifyReport, type SessionVerifyResult, verifyInSession } from "./session/verify.js";

// Evidence runs.
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
export { appendEvent, type EventInput, type EventLog, type RunEvent, readEvents } from "./evidence/events.js";
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
export { createRun, type NewRunOptions, openRun, type RunInfo } from "./evidence/run.js";
export type { Asset, DocumentMap, PaperIds, Snapshot } from "./evidence/snapshot.js";
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
