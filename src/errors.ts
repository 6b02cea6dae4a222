/**
 * Tool errors: a stable code, a one-line message that names the problem (never a flag or an argument
 * of one interface), and structured details. A tool error is never a verdict; it means the check could
 * not run.
 */
import type { CodeWithDetails, DetailsOf } from "./error-document.js";

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
  "PAGE_OUT_OF_RANGE",
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
  /** The source is not of a kind any reader takes (binary, unknown, empty, or a format left out). */
  "CONTENT_NOT_SUPPORTED",
  /** The source claims a kind it breaks (invalid UTF-8, malformed XML, a missing part); the part is named. */
  "CONTENT_INVALID",
  "RENDER_TIMEOUT",
  /** A page needs more memory than the engine may take (CITEPROOF_MAX_MEMORY_MB); the other pages are read. */
  "ENGINE_MEMORY_LIMIT",
  "RESULT_MISSING",
  "RESULT_STALE",
  "VERIFICATION_MISSING",
  "VERIFICATION_STALE",
  /** The per-user store key (CITEPROOF_KEY_FILE) cannot be read or created, or holds no key. */
  "KEY_UNAVAILABLE",
  /** A jobs line is not JSON, or has an unknown, missing or malformed field (the line and field named). */
  "BATCH_JOB_INVALID",
  /** Two lines of a jobs file share an id; nothing is run. */
  "BATCH_DUPLICATE_ID",
  /** A batch's results file holds something other than this batch's results; nothing is written. */
  "BATCH_OUTPUT_FOREIGN",
  /** Shard outputs being merged do not hold every job of the jobs file exactly once; nothing is written. */
  "BATCH_MERGE_MISMATCH",
  /** Another batch is writing the same results file (its lock is held); nothing is written. */
  "BATCH_OUTPUT_LOCKED",
  /** A tool call of the HTTP MCP server ran past the server's per-call deadline. */
  "CALL_TIMEOUT",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * What an error is about, for a program to act on. `path` names a field of the input, spelt one way
 * everywhere (`citations[3].bounding_box.left`); `field` is its last name; `option` names a setting
 * the caller can change (`timeout_ms`, `password`, `max_bytes`, `allow_root`, `max_redirects`); `limit`
 * is the bound that was crossed; `hint` says what to do, with `{option}` where the setting's name goes:
 * each interface writes that name in its own terms (the CLI `--timeout-ms`, a tool `timeout_ms`).
 * `issues` lists every problem of an input when there was more than one.
 */
export interface ErrorDetails {
  path?: string;
  field?: string;
  option?: string;
  limit?: number;
  hint?: string;
  issues?: InputIssue[];
  /** Other facts, such as the HTTP status of a failed fetch. */
  [fact: string]: unknown;
}

/** One problem of an input: the field by its path, and what is wrong with it. */
export interface InputIssue {
  path: string;
  field?: string;
  code: ErrorCode;
  message: string;
  limit?: number;
}

/**
 * How an interface names what a message mentions: a setting (`--timeout-ms`, `timeout_ms`) and an
 * input field by its path (the CLI `--text`, a tool `argument "text"`).
 */
export interface Naming {
  option(option: string): string;
  field(path: string): string;
}

/** A field as a library caller and an agent see it: by its path. */
export function argumentName(path: string): string {
  return `argument "${path}"`;
}

/** The naming of a caller that has no flags: settings and fields by their own names. */
export const NEUTRAL_NAMING: Naming = { option: (option) => option, field: argumentName };

/** Details every error of a code carries (it crosses worker boundaries with its code alone). */
const DETAILS_OF_CODE: Partial<Record<ErrorCode, ErrorDetails>> = {
  ENCRYPTED_PDF: { option: "password", hint: "give its password with {option}" },
};

/** `{{text}}` in a message: the field `text`, named by each interface in its own terms. */
const FIELD_TOKEN = /\{\{([^{}]+)\}\}/g;

/** A message with its field tokens written by `field`. */
export function fillFields(template: string, field: (path: string) => string): string {
  return template.replace(FIELD_TOKEN, (_, path: string) => field(path));
}

/**
 * The details a new error of code `C` is given: required (its own facts, typed) for a code whose every
 * error carries some (error-document.ts), else optional.
 */
export type DetailsArgument<C extends ErrorCode> = [C] extends [CodeWithDetails]
  ? [details: DetailsOf<C> & ErrorDetails]
  : [details?: ErrorDetails];

export class CiteproofError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly details: ErrorDetails | undefined;
  /** The message with `{{path}}` where it names an input field, when it names one. */
  readonly template: string | undefined;
  /** Each listed issue's message as a template, for an interface to name the fields in its terms. */
  readonly issueTemplates: readonly string[] | undefined;

  /** `message` may name input fields as `{{path}}`; `.message` names them as arguments. */
  constructor(code: C, message: string, ...[details]: DetailsArgument<C>) {
    const named = message.includes("{{");
    super(named ? fillFields(message, argumentName) : message);
    this.name = "CiteproofError";
    this.code = code;
    const given = details ?? DETAILS_OF_CODE[code];
    this.issueTemplates = given?.issues?.map((i) => i.message);
    this.details =
      given?.issues === undefined
        ? given
        : {
            ...given,
            issues: given.issues.map((i) => ({ ...i, message: fillFields(i.message, argumentName) })),
          };
    this.template = named ? message : undefined;
  }

  toJSON(): { code: ErrorCode; message: string; details?: ErrorDetails } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/**
 * The message with its hint, the setting named as `name(option)` gives it: `(--timeout-ms)` after the
 * message when there is no hint sentence. Given a naming, the fields it mentions are named by it too.
 */
export function renderMessage(error: CiteproofError, name: ((option: string) => string) | Naming): string {
  const naming = typeof name === "function" ? { option: name, field: argumentName } : name;
  const message = error.template === undefined ? error.message : fillFields(error.template, naming.field);
  const d = error.details;
  const option = d?.option === undefined ? undefined : naming.option(d.option);
  if (d?.hint === undefined) return option === undefined ? message : `${message} (${option})`;
  const hint = option === undefined ? d.hint : d.hint.replaceAll("{option}", option);
  // A message that already says what to do is not followed by it again ("run 'run assemble' first").
  return message.includes(hint) ? message : `${message}; ${hint}`;
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

const STRUCTURAL = new Set(["path", "field", "option", "limit", "hint"]);

/** The details beyond the structural ones (such as an HTTP status), or undefined when there are none. */
export function errorFacts(error: CiteproofError): Record<string, unknown> | undefined {
  const facts = Object.entries(error.details ?? {}).filter(([key]) => !STRUCTURAL.has(key));
  return facts.length === 0 ? undefined : Object.fromEntries(facts);
}
