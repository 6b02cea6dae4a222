import { dirname, relative, resolve } from "node:path";
import type { Command } from "commander";
import type { DraftCheckReport } from "../../drafts/check-draft.js";
import { CiteproofError } from "../../errors.js";
import { checkTextOperation } from "../../operations/check-text.js";
import {
  DRAFT_OUTPUT_FORMATS,
  type DraftOutputFormat,
  draftGithubCommands,
  draftSarif,
} from "../../operations/draft-report.js";
import { withSettingNames } from "../../operations/run-operation.js";
import type { CommandIo } from "../cli-io.js";
import {
  addDocumentOptions,
  commandContext,
  type DocumentFlags,
  printJson,
  readTextInput,
  runAction,
  runAndPrint,
} from "../io.js";
import { OCR_FLAG_HELP, ocrOption } from "../ocr-flag.js";

interface CheckTextFlags extends DocumentFlags {
  ocr?: string;
  bib?: string;
  fetch?: boolean;
  allowRoot: string[];
  format?: string;
  strict?: boolean;
}

const VERSION = "0.1.0";

export function register(program: Command, io: CommandIo): void {
  addDocumentOptions(
    program
      .command("check-text")
      .description(
        "check the citations written in a draft's prose against a PDF (check-text <pdf> <draft>: p. N, page N, Eq. (L), " +
          'Fig. (L)) or a web page, Markdown or text (§ N, Section N, Sec. N, section "Name"), ' +
          "or against the sources of its bibliography (check-text <draft> --bib <refs>: pandoc, LaTeX, numeric " +
          "and author-year citations)",
      )
      .argument(
        "<pdf-or-draft>",
        "the source the draft cites (a PDF, HTML, Markdown or text); with --bib, a draft (Markdown, LaTeX or text; - for stdin)",
      )
      .argument("[drafts...]", "the draft as plain text, or - for stdin; with --bib, more drafts")
      .option(
        "--bib <refs>",
        "the drafts' bibliography: BibTeX/BibLaTeX, CSL-JSON, or a JSON map {key: path-or-URL}",
      )
      .option("--fetch", "with --bib: fetch entries whose source is a URL (the source fetch limits)")
      .option(
        "--allow-root <dir>",
        "with --bib: also read entries' files under this directory (repeatable; the working directory and the bibliography's folder always are)",
        (dir: string, dirs: string[]) => [...dirs, dir],
        [] as string[],
      )
      .option("--format <format>", `with --bib: ${DRAFT_OUTPUT_FORMATS.join(", ")} (default text)`)
      .option("--strict", "with --bib: exit 1 on a FLAG too")
      .option("--ocr <mode>", OCR_FLAG_HELP)
      .option("--json", "print the report as JSON"),
  ).action((first: string, more: string[], flags: CheckTextFlags) =>
    runAction(io, flags.json || flags.format === "json", async () => {
      if (flags.bib === undefined) {
        if (more.length !== 1)
          throw new CiteproofError("USAGE", "name one draft after the PDF, or give --bib");
        const draft = readTextInput(more[0], "draft");
        const ctx = commandContext(io, flags);
        return runAndPrint(
          io,
          checkTextOperation,
          { source: first, draft, password: flags.password, ...ocrOption(flags.ocr) },
          ctx,
          flags.json,
        );
      }
      return checkDrafts(io, [first, ...more], flags.bib, flags);
    }),
  );
}

/** Each draft against the bibliography; exit 1 when a citation FAILs (with --strict, or FLAGs). */
async function checkDrafts(
  io: CommandIo,
  paths: string[],
  bib: string,
  flags: CheckTextFlags,
): Promise<number> {
  const format = outputFormat(flags);
  // The bibliography is typed by a person; the files it names are data, read only inside the roots.
  const ctx = {
    ...commandContext(io, flags),
    access: [io.cwd, dirname(resolve(io.cwd, bib)), ...flags.allowRoot],
  };
  const done: { uri: string; report: DraftCheckReport; input: { bib: string; draft: string } }[] = [];
  for (const path of paths) {
    const input = { bib, draft: readTextInput(path, "draft"), draft_name: path, fetch: flags.fetch === true };
    const report = withSettingNames((await checkTextOperation.run(input, ctx)) as DraftCheckReport, ctx);
    const uri = path === "-" ? "draft" : relative(io.cwd, resolve(io.cwd, path)).split("\\").join("/");
    done.push({ uri, report, input });
  }
  if (format === "json")
    printJson(
      done.length === 1 ? done[0].report : { drafts: done.map((d) => ({ path: d.uri, report: d.report })) },
      io.stdout,
    );
  else if (format === "sarif") printJson(draftSarif(done, VERSION), io.stdout);
  else if (format === "github")
    io.stdout.write(done.map((d) => draftGithubCommands(d.report, d.uri)).join(""));
  else
    io.stdout.write(done.map((d) => `${d.uri}: ${checkTextOperation.format(d.report, d.input)}`).join("\n"));
  const failed = done.some(
    ({ report: { summary: s } }) => s.FAIL > 0 || (flags.strict === true && s.FLAG > 0),
  );
  return failed ? 1 : 0;
}

function outputFormat(flags: CheckTextFlags): DraftOutputFormat {
  if (flags.json) return "json";
  const format = flags.format ?? "text";
  if (!(DRAFT_OUTPUT_FORMATS as readonly string[]).includes(format))
    throw new CiteproofError(
      "USAGE",
      `--format must be one of ${DRAFT_OUTPUT_FORMATS.join(", ")} (got ${format})`,
      {
        option: "format",
      },
    );
  return format as DraftOutputFormat;
}
