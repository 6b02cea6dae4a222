import type { Command } from "commander";
import { CiteproofError } from "../../errors.js";
import type { AccessLevel, Origin } from "../../evidence/reasons.js";
import {
  fetchSource,
  localSource,
  readSource,
  registerSource,
  type SourceMeta,
  type SourceReceipt,
  searchSource,
} from "../../evidence/sources.js";
import { readRegularFileSync } from "../../source/file.js";
import { EXIT_CLEAN, nonNegativeInt, positiveInt, printJson, runAction } from "../io.js";

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

export function register(program: Command): void {
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
      .option("--cache-dir <dir>", "extraction cache for retrieved PDFs"),
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
      runAction(flags.json, async () => {
        const receipt = await fetchSource(flags.runDir, flags.url, {
          ...meta(flags),
          maxBytes: positiveInt(flags.maxBytes, "--max-bytes"),
          timeoutMs: positiveInt(flags.timeoutMs, "--timeout-ms"),
          maxRedirects: nonNegativeInt(flags.maxRedirects, "--max-redirects"),
          cacheDir: flags.cacheDir,
        });
        return printReceipt(receipt, flags.json);
      }),
  );

  metaOptions(
    source
      .command("local")
      .description(
        "register a user-supplied PDF from the library root (hashed, not copied), logged as local_pdf",
      )
      .requiredOption("--file <pdf>", "the PDF, inside the run's library root")
      .option("--cache-dir <dir>", "extraction cache directory")
      .option("--timeout-ms <ms>", "deadline for extraction in milliseconds", "60000")
      .option("--password <password>", "password of an encrypted PDF")
      .option("--max-bytes <bytes>", "largest PDF accepted, in bytes", String(256 * 1024 * 1024)),
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
      runAction(flags.json, async () => {
        const receipt = await localSource(flags.runDir, flags.file, {
          ...meta(flags),
          cacheDir: flags.cacheDir,
          timeoutMs: positiveInt(flags.timeoutMs, "--timeout-ms"),
          password: flags.password,
          maxBytes: positiveInt(flags.maxBytes, "--max-bytes"),
        });
        return printReceipt(receipt, flags.json);
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
    runAction(flags.json, () => {
      const text = readUtf8Input(flags.textFile, "text file");
      const receipt = registerSource(flags.runDir, {
        ...meta(flags),
        url: flags.url,
        text,
        mediaType: flags.mediaType,
      });
      return printReceipt(receipt, flags.json);
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
    runAction(flags.json, () => {
      const window = readSource(flags.runDir, flags.sourceId, {
        start: nonNegativeInt(flags.start, "--start"),
        end: nonNegativeInt(flags.end, "--end"),
        actor: flags.actor,
      });
      if (flags.json) printJson(window);
      else {
        process.stdout.write(
          `${window.source_id} [${window.start}, ${window.end}) of ${window.length} code points, access ${window.access}, ${window.content_hash} verified\n${window.text}\n`,
        );
      }
      return EXIT_CLEAN;
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
    runAction(flags.json, () => {
      const found = searchSource(flags.runDir, flags.sourceId, flags.query, {
        contextCodePoints: nonNegativeInt(flags.context, "--context"),
        maxHits: positiveInt(flags.maxHits, "--max-hits"),
        actor: flags.actor,
      });
      if (flags.json) printJson(found);
      else {
        const lines = [
          `${found.source_id}: ${found.method} match, ${found.hits.length} hit(s) for ${JSON.stringify(found.query)}`,
        ];
        // The window exactly as stored, line breaks and all, so what a writer copies is the snapshot's text.
        for (const [i, hit] of found.hits.entries()) {
          lines.push(
            `hit ${i + 1}: match start=${hit.start} end=${hit.end} (score ${hit.score}); window start=${hit.window_start} end=${hit.window_end}`,
            `<<<${hit.window}>>>`,
          );
        }
        process.stdout.write(`${lines.join("\n")}\n`);
      }
      return EXIT_CLEAN;
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

function meta(flags: MetaFlags): SourceMeta {
  const paper =
    flags.pmid || flags.doi || flags.pmcid
      ? { pmid: flags.pmid, doi: flags.doi, pmcid: flags.pmcid }
      : undefined;
  return {
    access: flags.access as AccessLevel | undefined,
    origin: flags.origin as Origin | undefined,
    evidenceId: flags.evidenceId,
    paper,
    title: flags.title,
    actor: flags.actor,
  };
}

function printReceipt(receipt: SourceReceipt, json: boolean | undefined): number {
  if (json) printJson(receipt);
  else {
    const what = receipt.created ? "stored" : "already stored (unchanged; no-op)";
    process.stdout.write(
      `${receipt.source_id} ${what}: ${receipt.length} code points, access ${receipt.access}, origin ${receipt.origin}` +
        `${receipt.pages !== null ? `, ${receipt.pages} pages` : ""}\n` +
        `  ${receipt.content_hash}\n  event ${receipt.event.event_id} (${receipt.event.type}, fresh: ${receipt.event.fresh})\n`,
    );
  }
  return EXIT_CLEAN;
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
