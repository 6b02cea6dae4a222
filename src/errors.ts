/**
 * Tool errors: a stable code and a one-line message that names the problem.
 * A tool error is never a verdict; it means the check could not run.
 */
export const ERROR_CODES = [
  "USAGE",
  "FILE_NOT_FOUND",
  "FILE_UNREADABLE",
  "FILE_TOO_LARGE",
  "NOT_PDF",
  "DAMAGED_PDF",
  "ENCRYPTED_PDF",
  "BAD_PASSWORD",
  "UNSUPPORTED_SECURITY",
  "EXTRACTION_TIMEOUT",
  "EXTRACTION_FAILED",
  "EVIDENCE_NOT_JSON",
  "EVIDENCE_INVALID",
  "KIND_NOT_SUPPORTED",
  "PAGE_OUT_OF_RANGE",
  "CACHE_UNWRITABLE",
  "ACCESS_DENIED",
  "URL_FETCH_FAILED",
  "URL_TOO_LARGE",
  "OUTPUT_UNWRITABLE",
  "ANCHOR_NOT_FOUND",
  "BOX_INVALID",
  "OCR_UNAVAILABLE",
  "SESSION_NOT_FOUND",
  "SESSION_EXISTS",
  "SESSION_CORRUPT",
  "SESSION_LOCKED",
  "ORIGINAL_MISMATCH",
  "RUN_NOT_FOUND",
  "RUN_EXISTS",
  "RUN_CORRUPT",
  "SNAPSHOT_HASH_MISMATCH",
  "SOURCE_NOT_FOUND",
  "PROMOTION_FAILED",
  "INTERNAL",
  "URL_INVALID",
  "URL_HTTP_ERROR",
  "URL_TIMEOUT",
  "URL_TOO_MANY_REDIRECTS",
  "CONTENT_NOT_SUPPORTED",
  "RENDER_TIMEOUT",
  "RESULT_MISSING",
  "RESULT_STALE",
  "VERIFICATION_MISSING",
  "VERIFICATION_STALE",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class CiteproofError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "CiteproofError";
    this.code = code;
    this.details = details;
  }

  toJSON(): { code: ErrorCode; message: string; details?: Record<string, unknown> } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isCiteproofError(value: unknown): value is CiteproofError {
  return value instanceof CiteproofError;
}

/** Wraps anything thrown into a coded error without leaking a stack trace into messages. */
export function asCiteproofError(value: unknown): CiteproofError {
  if (value instanceof CiteproofError) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new CiteproofError("INTERNAL", `internal error: ${message.split("\n")[0]}`);
}
