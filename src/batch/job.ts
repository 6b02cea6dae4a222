/**
 * One line of a jobs file: an id, one source (`pdf`; `source`, of any kind, for verify and check_text;
 * `url` for cite_check; or `bib` for check_text: a draft checked against its bibliography's sources)
 * and one check, whose
 * payload is read by the same zod fields the operation's own input schema uses. A bad line becomes a
 * `BATCH_JOB_INVALID` error naming its line number and the field.
 */
import { z } from "zod";
import { CiteproofError } from "../errors.js";
import { inputSchema } from "../operations/operation.js";
import { citeCheckInput } from "../operations/schemas/cite-check.js";
import { checkTextInput } from "../operations/schemas/documents.js";
import { evidenceField, passwordField } from "../operations/schemas/fields.js";
import { parseInput } from "../util/parse-input.js";

/** The checks a job may ask for, each the operation of the same name. */
export const JOB_KINDS = ["verify", "cite_check", "check_text"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const MAX_JOB_ID_CHARS = 256;

const jobObject = z.strictObject({
  id: z.string().min(1).max(MAX_JOB_ID_CHARS).describe("the job's identifier, unique in the file"),
  pdf: z.string().min(1).optional().describe("path of the PDF, inside the allowed roots"),
  source: z
    .string()
    .min(1)
    .optional()
    .describe(
      "path of the cited source of any kind (PDF, HTML, Markdown, text, EPUB, DOCX, ODT, JATS), inside the allowed roots, or an http(s) URL, its kind read from its content (verify and check_text jobs only, instead of pdf)",
    ),
  url: z.string().min(1).optional().describe("an http(s) URL of the PDF (cite_check jobs only)"),
  bib: z
    .string()
    .min(1)
    .optional()
    .describe(
      "path of the draft's bibliography, inside the allowed roots (check_text jobs only, instead of pdf)",
    ),
  password: passwordField,
  verify: evidenceField.optional(),
  cite_check: citeCheckInput.object.omit({ sources: true, operation: true }).optional(),
  check_text: checkTextInput.object.shape.draft.optional(),
});

const jobSchema = inputSchema(jobObject);

export type JobLine = z.infer<typeof jobObject>;

export interface Job {
  id: string;
  /** One-based line of the jobs file. */
  line: number;
  kind: JobKind;
  spec: JobLine;
}

/** Reads one line of the jobs file (one-based `line`); throws BATCH_JOB_INVALID. */
export function parseJobLine(text: string, line: number): Job {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid(line, `is not JSON (${(error as Error).message})`);
  }
  let job: JobLine;
  try {
    job = parseInput(`jobs line ${line}`, jobSchema, value);
  } catch (error) {
    const coded = error as CiteproofError;
    throw invalid(line, `: ${coded.message}`, coded.details);
  }
  if (RESERVED_ID.test(job.id))
    throw invalid(
      line,
      `: "id" ${JSON.stringify(job.id)} has the form "#line N", which names a jobs line without an id; choose another`,
      { field: "id" },
    );
  const kinds = JOB_KINDS.filter((k) => job[k] !== undefined);
  if (kinds.length !== 1)
    throw invalid(line, `must hold exactly one of ${JOB_KINDS.map((k) => `"${k}"`).join(", ")}`, {
      field: kinds[1] ?? "verify",
    });
  const kind = kinds[0];
  if ([job.pdf, job.source, job.url, job.bib].filter((s) => s !== undefined).length !== 1)
    throw invalid(line, 'must name exactly one source, "pdf", "source", "url" or "bib"', { field: "pdf" });
  if (job.source !== undefined && kind === "cite_check")
    throw invalid(
      line,
      ': "source" is read by verify and check_text jobs only; cite_check reads a "pdf" or a "url"',
      {
        field: "source",
      },
    );
  if (job.bib !== undefined && kind !== "check_text")
    throw invalid(line, `: "bib" is read by check_text jobs only; a ${kind} job names a "pdf"`, {
      field: "bib",
    });
  if (job.url !== undefined && kind !== "cite_check")
    throw invalid(line, `: "url" is read by cite_check jobs only; a ${kind} job names a local "pdf"`, {
      field: "url",
    });
  return { id: job.id, line, kind, spec: job };
}

/** Ids of this form are the keys of lines without an id, so no job may take one. */
const RESERVED_ID = /^#line \d+$/;

/**
 * How a line is keyed: its id, or for a jobs line whose id could not be read, its line number
 * (`#line N`, a form no id may take, so the two never collide).
 */
export function lineKey(id: string | null, line: number): string {
  return id ?? `#line ${line}`;
}

/**
 * The id a line carries when it can be read that far, so its error line can name it; a reserved id
 * (`#line N`) is not one: such a line is keyed by its own line number.
 */
export function idOfLine(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as { id?: unknown };
    return typeof value?.id === "string" && value.id.length > 0 && !RESERVED_ID.test(value.id)
      ? value.id
      : undefined;
  } catch {
    return undefined;
  }
}

function invalid(line: number, problem: string, details?: CiteproofError["details"]): CiteproofError {
  const sep = problem.startsWith(":") ? "" : " ";
  const field = details?.field ?? details?.path;
  return new CiteproofError("BATCH_JOB_INVALID", `jobs line ${line}${sep}${problem}`, {
    ...details,
    line,
    ...(field === undefined ? {} : { field }),
  });
}
