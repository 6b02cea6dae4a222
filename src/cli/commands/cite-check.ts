import type { Command } from "commander";
import {
  type CiteCheckInput,
  type CiteSource,
  OPTION_FIELDS,
  parseCitations,
  parseCiteCheckRequest,
  parseOptions,
  parseUrl,
} from "../../checks/cite-check/request.js";
import { CiteproofError } from "../../errors.js";
import { checkCitations, citeCheckOperation, formatCiteCheckReport } from "../../operations/cite-check.js";
import type { OperationContext } from "../../operations/operation.js";
import type { CommandIo } from "../cli-io.js";
import { CACHE_DIR_HELP, printJson, readTextInput, runAction } from "../io.js";

interface CiteCheckFlags {
  citations?: string;
  request?: string;
  normalization?: string;
  expectedSha256?: string;
  ocr?: string;
  timeoutMs?: string;
  maxOutputChars?: string;
  allowRoot: string[];
  cacheDir?: string;
  cache?: boolean;
  password?: string;
  json?: boolean;
}

/** Flag name for each request option field. */
const FLAG_OF: Record<(typeof OPTION_FIELDS)[number], string> = {
  normalization: "--normalization",
  expected_source_sha256: "--expected-sha256",
  ocr: "--ocr",
  timeout_ms: "--timeout-ms",
  max_output_chars: "--max-output-chars",
};

export function register(program: Command, io: CommandIo): void {
  program
    .command("cite-check")
    .description("check that quotes occur on a physical page of a PDF inside a bounding box")
    .argument("[source]", "the PDF: a local path or an http(s) URL")
    .option("--citations <file>", "JSON array of {id?, quote, page, bounding_box} (- for stdin)")
    .option("--request <file>", 'the whole request as one JSON document ({"operation":"cite_check",...})')
    .option("--normalization <profile>", "none (default) or whitespace_v1")
    .option("--expected-sha256 <hex>", "the source's expected sha256; a mismatch decides before extraction")
    .option("--ocr <mode>", "auto: OCR cited pages without text; tesseract: also where exact matching fails")
    .option("--timeout-ms <ms>", "one deadline for fetching, extraction and OCR (1000-300000, default 60000)")
    .option("--max-output-chars <n>", "budget for supporting locations (1000-1000000, default 200000)")
    .option(
      "--allow-root <dir>",
      "also admit sources a --request names under this directory (repeatable; the working directory always is)",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option("--cache-dir <dir>", CACHE_DIR_HELP)
    .option("--no-cache", "neither read nor write the extraction cache")
    .option("--password <password>", "password of an encrypted PDF")
    .option("--json", "print the report as JSON")
    .action((source: string | undefined, flags: CiteCheckFlags) =>
      runAction(io, flags.json, async () => {
        const input = buildInput(source, flags);
        // A source typed on the command line is read wherever it is; one named in a request document
        // only inside the working directory and the --allow-root folders.
        const ctx: OperationContext = {
          cwd: io.cwd,
          access: flags.request === undefined ? "anywhere" : [io.cwd, ...flags.allowRoot],
          open: { cacheDir: flags.cacheDir, noCache: flags.cache === false },
          caller: "cli",
        };
        const report = await checkCitations(input, ctx, flags.password);
        if (flags.json) printJson(citeCheckOperation.json(report), io.stdout);
        else io.stdout.write(formatCiteCheckReport(report));
        return citeCheckOperation.exitCode(report);
      }),
    );
}

function usage(message: string): CiteproofError {
  return new CiteproofError("USAGE", message);
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw usage(`${what} is not valid JSON (${detail})`);
  }
}

/** The option values given as flags, in the request's spelling (numbers parsed strictly). */
function optionFlags(flags: CiteCheckFlags): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (flags.normalization !== undefined) out.normalization = flags.normalization;
  if (flags.expectedSha256 !== undefined) out.expected_source_sha256 = flags.expectedSha256;
  if (flags.ocr !== undefined) out.ocr = flags.ocr;
  if (flags.timeoutMs !== undefined) out.timeout_ms = integerFlag(flags.timeoutMs, "--timeout-ms");
  if (flags.maxOutputChars !== undefined)
    out.max_output_chars = integerFlag(flags.maxOutputChars, "--max-output-chars");
  return out;
}

function integerFlag(value: string, flag: string): number {
  if (!/^-?\d+$/.test(value)) throw usage(`${flag} must be an integer (got ${JSON.stringify(value)})`);
  return Number(value);
}

export function buildInput(source: string | undefined, flags: CiteCheckFlags): CiteCheckInput {
  const given = optionFlags(flags);
  if (flags.request !== undefined) {
    if (source !== undefined) throw usage("give the source either as an argument or in --request, not both");
    if (flags.citations !== undefined) throw usage("--citations cannot be combined with --request");
    const clash = Object.keys(given)[0] as (typeof OPTION_FIELDS)[number] | undefined;
    if (clash)
      throw usage(`${FLAG_OF[clash]} cannot be combined with --request (set ${clash} in the request)`);
    return parseCiteCheckRequest(
      parseJson(readTextInput(flags.request, "request file"), `request file ${flags.request}`),
    );
  }
  if (source === undefined) throw usage("give the PDF (a path or URL) and --citations, or --request");
  if (flags.citations === undefined) throw usage("--citations <file> is required (or give --request)");
  const doc = parseJson(
    readTextInput(flags.citations, "citations file"),
    `citations file ${flags.citations}`,
  );
  let citationsValue: unknown = doc;
  const fields: Record<string, unknown> = { ...given };
  const names: Record<string, string> = {};
  for (const key of Object.keys(given)) names[key] = FLAG_OF[key as (typeof OPTION_FIELDS)[number]];
  if (typeof doc === "object" && doc !== null && !Array.isArray(doc)) {
    const obj = doc as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      if (key === "citations") continue;
      if (!(OPTION_FIELDS as readonly string[]).includes(key))
        throw usage(`citations file: ${key} is not a known field (citations, ${OPTION_FIELDS.join(", ")})`);
      if (key in given)
        throw usage(
          `${FLAG_OF[key as (typeof OPTION_FIELDS)[number]]} is also set in the citations file (${key})`,
        );
      fields[key] = obj[key];
    }
    citationsValue = obj.citations;
  }
  return {
    source: sourceOf(source),
    citations: parseCitations(citationsValue, "citations"),
    ...parseOptions(fields, names),
  };
}

function sourceOf(arg: string): CiteSource {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) return { url: parseUrl(arg, "source") };
  return { path: arg };
}
