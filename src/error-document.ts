/**
 * The error document every interface gives, `{code, message, details}`, and the shape of `details` for
 * each error code (ERROR_CODES in errors.ts), defined once here: the facts every input error may carry
 * (`path`, `field`, `option`, `limit`, `hint`, `issues`) and the ones a code carries of its own (an HTTP
 * status, the lines of a jobs file, ...). A detail a code does not declare is refused.
 */
import { z } from "zod";
import {
  asCiteproofError,
  ERROR_CODES,
  type ErrorCode,
  type ErrorDetails,
  fillFields,
  type Naming,
  renderMessage,
} from "./errors.js";

/**
 * The schemas are built when first asked for (an error checked against its shape, a program reading
 * ERROR_DETAILS): building some forty zod objects costs milliseconds at every CLI start, and most
 * runs report no error.
 */
function detailFields() {
  const inputIssue = z.strictObject({
    path: z.string(),
    field: z.string().optional(),
    code: z.enum(ERROR_CODES),
    message: z.string(),
    limit: z.number().optional(),
  });

  /** What every code's details may hold (errors.ts, ErrorDetails, says what each means). */
  const common = {
    path: z.string().optional(),
    field: z.string().optional(),
    option: z.string().optional(),
    limit: z.number().optional(),
    hint: z.string().optional(),
    issues: z.array(inputIssue).optional(),
    /** Past the issues listed (util/parse-input.ts, MAX_LISTED_ISSUES), how many more there are. */
    unlisted_issues: z.number().int().positive().optional(),
  };

  const line = z.number().int().positive();
  const count = z.number().int().nonnegative();

  /**
   * The facts a code carries beyond the common ones: required where every error of the code knows
   * them (so its producers must give them), optional where only some do.
   */
  const ownFacts = {
    /** The two lines that share the id. */
    BATCH_DUPLICATE_ID: { lines: z.array(line), id: z.string() },
    /** The jobs file's line that is wrong. */
    BATCH_JOB_INVALID: { line },
    /** How many jobs no shard holds, and how many more than one does. */
    BATCH_MERGE_MISMATCH: { missing: count, duplicated: count },
    /** The results file's line that is not this batch's. */
    BATCH_OUTPUT_FOREIGN: { line },
    /** The part of the source that breaks its kind (a zip entry, an XML file), where one part does. */
    CONTENT_INVALID: { part: z.string().optional() },
    /** The part not supported, or the kind of source a command cannot read (a session's flow original). */
    CONTENT_NOT_SUPPORTED: { part: z.string().optional(), kind: z.string().optional() },
    /** The memory limit the page needed more than. */
    ENGINE_MEMORY_LIMIT: { limitMb: z.number() },
    /** The page the engine could not read, where one page failed. */
    EXTRACTION_FAILED: { page: line.optional() },
    /** The sha256 of the original the session is bound to, and of the PDF given. */
    ORIGINAL_MISMATCH: { bound: z.string(), given: z.string() },
    /** The run file's line that is damaged, where one line is. */
    RUN_CORRUPT: { line: line.optional() },
    /** The HTTP status the server answered, and the address asked. */
    URL_HTTP_ERROR: { status: z.number().int(), url: z.string() },
    /** The addresses the redirects led to, in order (the last one is the redirect refused). */
    URL_TOO_MANY_REDIRECTS: { redirects: z.array(z.string()) },
  } satisfies Partial<Record<ErrorCode, z.ZodRawShape>>;
  return { common, ownFacts };
}

type DetailFields = ReturnType<typeof detailFields>;
type OwnFacts = DetailFields["ownFacts"];
type DetailsSchema<C extends ErrorCode> = z.ZodObject<
  DetailFields["common"] & (C extends keyof OwnFacts ? OwnFacts[C] : Record<never, never>),
  z.core.$strict
>;

let fields: DetailFields | undefined;

/** The schema of each code's details, each built when first read. */
export const ERROR_DETAILS = {} as { readonly [C in ErrorCode]: DetailsSchema<C> };
for (const code of ERROR_CODES) {
  let schema: z.ZodType | undefined;
  Object.defineProperty(ERROR_DETAILS, code, {
    enumerable: true,
    get() {
      fields ??= detailFields();
      const own = (fields.ownFacts as Partial<Record<ErrorCode, z.ZodRawShape>>)[code];
      schema ??= z.strictObject({ ...fields.common, ...own });
      return schema;
    },
  });
}

/** The details of an error of code `C`, typed. */
export type DetailsOf<C extends ErrorCode> = z.infer<(typeof ERROR_DETAILS)[C]>;

/** The codes whose every error carries details (a fact of its own is required). */
export type CodeWithDetails = {
  [C in ErrorCode]: Record<string, never> extends DetailsOf<C> ? never : C;
}[ErrorCode];

/** What is wrong with details given for a code, or undefined when they are its shape. */
export function detailsProblem(code: ErrorCode, details: unknown): string | undefined {
  const parsed = (ERROR_DETAILS[code] as z.ZodType).safeParse(details ?? {});
  if (parsed.success) return undefined;
  return parsed.error.issues.map((i) => `${i.path.join(".") || "details"}: ${i.message}`).join("; ");
}

/** Set (to 1) by the test suites: an error document whose details are not its code's shape is INTERNAL. */
export const CHECK_DETAILS_ENV = "CITEPROOF_CHECK_ERROR_DETAILS";

/** The error document every interface gives: `{code, message, details}`, in the interface's names. */
export interface ErrorDocument {
  code: ErrorCode;
  message: string;
  details?: ErrorDetails;
}

/**
 * The one error document of every interface (CLI `--json`, MCP, pi, batch lines): the message and
 * the hint in the interface's names, every detail kept (the setting's and the field's canonical names
 * stay in `option` and `path`, for a program to act on).
 */
export function errorDocument(error: unknown, naming: Naming): ErrorDocument {
  const coded = asCiteproofError(error);
  if (process.env[CHECK_DETAILS_ENV] === "1") {
    const problem = detailsProblem(coded.code, coded.details);
    if (problem !== undefined)
      return {
        code: "INTERNAL",
        message: `internal error: the details of ${coded.code} are not its shape: ${problem}`,
      };
  }
  const message = renderMessage(coded, naming);
  const d = coded.details;
  if (d === undefined) return { code: coded.code, message };
  const details: ErrorDetails = { ...d };
  if (d.hint !== undefined && d.option !== undefined)
    details.hint = d.hint.replaceAll("{option}", naming.option(d.option));
  if (d.issues !== undefined)
    details.issues = d.issues.map((issue, i) => ({
      ...issue,
      message: fillFields(coded.issueTemplates?.[i] ?? issue.message, naming.field),
    }));
  return { code: coded.code, message, details };
}
