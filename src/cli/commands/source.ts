import type { Command } from "commander";
import { CiteproofError } from "../../errors.js";
import type { AccessLevel, Origin } from "../../evidence/reasons.js";
import {
  sourceFetchOperation,
  sourceLocalOperation,
  sourceReadOperation,
  sourceRegisterOperation,
  sourceSpansOperation,
} from "../../operations/source.js";
import { readRegularFileSync } from "../../source/file.js";
import type { CommandIo } from "../cli-io.js";
import { commandContext, nonNegativeInt, positiveInt, runAction, runAndPrint } from "../io.js";

interface CommonFlags {
  runDir: string;
  json?: boolean;
  actor?: string;
}

interface MetaFlags extends CommonFlags {
  access?: string;
  origin?: string;
  evidenceId?: string;
  pmid?: string;
  doi?: string;
  pmcid?: string;
  title?: string;
}

export function register(program: Command, io: CommandIo): void {
  const source = program
    .command("source")
    .description("evidence-run sources: retrieve, register and read content-addressed snapshots");

  metaOptions(
    source
      .command("fetch")
      .description(
        "retrieve a URL (HTML, PDF or plain text), store its text as a snapshot, log a fresh fetch",
      )
      .requiredOption("--url <url>", "http or https URL to retrieve")
      .option("--max-bytes <bytes>", "largest body accepted, in bytes", String(64 * 1024 * 1024))
      .option("--timeout-ms <ms>", "deadline for the whole retrieval (and PDF extraction)", "30000")
      .option("--max-redirects <n>", "redirects followed", "5")
      .option(
        "--cache-dir <dir>",
        "extraction cache for retrieved PDFs (default: $CITEPROOF_CACHE_DIR, else $XDG_CACHE_HOME/citeproof, else ~/.cache/citeproof)",
      ),
  ).action(
    (
      flags: MetaFlags & {
        url: string;
        maxBytes?: string;
        timeoutMs?: string;
        maxRedirects?: string;
        cacheDir?: string;
      },
    ) =>
      runAction(io, flags.json, () => {
        const input = {
          ...metaInput(flags),
          url: flags.url,
          max_bytes: positiveInt(flags.maxBytes, "--max-bytes"),
          timeout_ms: positiveInt(flags.timeoutMs, "--timeout-ms"),
          max_redirects: nonNegativeInt(flags.maxRedirects, "--max-redirects"),
        };
        return runAndPrint(io, sourceFetchOperation, input, commandContext(io, flags), flags.json);
      }),
  );

  metaOptions(
    source
      .command("local")
      .description(
        "register a user-supplied file from the library root (hashed, not copied): a PDF, logged as local_pdf, or HTML, Markdown, text, EPUB, DOCX, ODT or JATS, logged as local_file",
      )
      .requiredOption("--file <file>", "the file, inside the run's library root (its kind told by content)")
      .option(
        "--cache-dir <dir>",
        "extraction cache directory (default: $CITEPROOF_CACHE_DIR, else $XDG_CACHE_HOME/citeproof, else ~/.cache/citeproof)",
      )
      .option("--timeout-ms <ms>", "deadline for extraction in milliseconds", "60000")
      .option("--password <password>", "password of an encrypted PDF")
      .option("--max-bytes <bytes>", "largest file accepted, in bytes", String(256 * 1024 * 1024)),
  ).action(
    (
      flags: MetaFlags & {
        file: string;
        cacheDir?: string;
        timeoutMs?: string;
        password?: string;
        maxBytes?: string;
      },
    ) =>
      runAction(io, flags.json, () => {
        const input = { ...metaInput(flags), file: flags.file, password: flags.password };
        return runAndPrint(io, sourceLocalOperation, input, commandContext(io, flags), flags.json);
      }),
  );

  metaOptions(
    source
      .command("register")
      .description("register text obtained elsewhere (never counts as a fresh retrieval)")
      .requiredOption("--url <url>", "where the text came from (part of the snapshot's identity)")
      .requiredOption("--text-file <file>", "UTF-8 text to register, exactly as it is ('-' for stdin)")
      .option("--media-type <type>", "media type of the text", "text/plain"),
  ).action((flags: MetaFlags & { url: string; textFile: string; mediaType: string }) =>
    runAction(io, flags.json, () => {
      const input = {
        ...metaInput(flags),
        url: flags.url,
        text: readUtf8Input(flags.textFile, "text file"),
        media_type: flags.mediaType,
      };
      return runAndPrint(io, sourceRegisterOperation, input, commandContext(io, {}), flags.json);
    }),
  );

  common(
    source
      .command("read")
      .description(
        "a verified, bounded read of a snapshot: [start, end) in code points (default 4000, at most 20000)",
      )
      .requiredOption("--source-id <id>", "the snapshot to read")
      .option("--start <n>", "first code point", "0")
      .option("--end <n>", "code point after the last one read"),
  ).action((flags: CommonFlags & { sourceId: string; start?: string; end?: string }) =>
    runAction(io, flags.json, () => {
      const input = {
        run_dir: flags.runDir,
        source_id: flags.sourceId,
        start: nonNegativeInt(flags.start, "--start"),
        end: nonNegativeInt(flags.end, "--end"),
        actor: flags.actor,
      };
      return runAndPrint(io, sourceReadOperation, input, commandContext(io, {}), flags.json);
    }),
  );

  common(
    source
      .command("spans")
      .description(
        "find where a snapshot says something: exact on the folded text, else scored approximate windows",
      )
      .requiredOption("--source-id <id>", "the snapshot to search")
      .requiredOption("--query <text>", "words to look for")
      .option("--context <n>", "code points shown on each side of a hit", "250")
      .option("--max-hits <n>", "most hits listed", "8"),
  ).action((flags: CommonFlags & { sourceId: string; query: string; context?: string; maxHits?: string }) =>
    runAction(io, flags.json, () => {
      const input = {
        run_dir: flags.runDir,
        source_id: flags.sourceId,
        query: flags.query,
        context: nonNegativeInt(flags.context, "--context"),
        max_hits: positiveInt(flags.maxHits, "--max-hits"),
        actor: flags.actor,
      };
      return runAndPrint(io, sourceSpansOperation, input, commandContext(io, {}), flags.json);
    }),
  );
}

function common(command: Command): Command {
  return command
    .requiredOption("--run-dir <dir>", "the run folder")
    .option("--actor <name>", "who acts, for the event log", "main")
    .option("--json", "print JSON");
}

function metaOptions(command: Command): Command {
  return common(command)
    .option("--access <level>", "what the text can support: full_text, abstract, preprint, guideline, web")
    .option("--origin <origin>", "where it came from: pubmed, pmc, europepmc, unpaywall, oa-pdf, web")
    .option("--evidence-id <id>", "the evidence this snapshot is registered for (pmid:..., doi:..., web:...)")
    .option("--pmid <id>", "the paper's PMID")
    .option("--doi <doi>", "the paper's DOI")
    .option("--pmcid <id>", "the paper's PMCID")
    .option("--title <title>", "a title for the source");
}

/** The flags every registering command shares, as the operation's fields; the source layer checks each. */
function metaInput(flags: MetaFlags) {
  return {
    run_dir: flags.runDir,
    access: flags.access as AccessLevel | undefined,
    origin: flags.origin as Origin | undefined,
    evidence_id: flags.evidenceId,
    pmid: flags.pmid,
    doi: flags.doi,
    pmcid: flags.pmcid,
    title: flags.title,
    actor: flags.actor,
  };
}

/** Reads UTF-8 text exactly (a file, or stdin for "-"); invalid UTF-8 is an error, never replaced. */
function readUtf8Input(path: string, what: string): string {
  const bytes = readRegularFileSync(path, what);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new CiteproofError("EVIDENCE_INVALID", `${what} ${path} is not valid UTF-8`);
  }
}
