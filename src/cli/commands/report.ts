import { type Command, Option } from "commander";
import { evidenceFileList } from "../../checks/evidence-record.js";
import { reportOperation } from "../../operations/report.js";
import { DEFAULT_REPORT_DPI } from "../../report/build.js";
import type { CommandIo } from "../cli-io.js";
import { parseDpi } from "../dpi.js";
import {
  addDocumentOptions,
  commandContext,
  type DocumentFlags,
  readTextInput,
  runAction,
  runAndPrint,
} from "../io.js";
import { OCR_FLAG_HELP, ocrOption } from "../ocr-flag.js";

interface ReportFlags extends DocumentFlags {
  evidence: string;
  out: string;
  dpi: string;
  order?: string;
  inlineImages?: boolean;
  ocr?: string;
}

export function register(program: Command, io: CommandIo): void {
  addDocumentOptions(
    program
      .command("report")
      .description(
        "verify evidence records and write an HTML report showing each cited place: cropped from a PDF, or a flow source's passage with its heading chain",
      )
      .argument(
        "<source>",
        "the source the evidence cites, a path or an http(s) URL (a PDF, HTML, XHTML, Markdown, text, EPUB, DOCX, ODT or JATS; kind told by content)",
      )
      .requiredOption("--evidence <file>", "JSON array of evidence records")
      .requiredOption("--out <file>", "the HTML file to write (replaced atomically)")
      .option("--dpi <dpi>", "resolution of the crops", String(DEFAULT_REPORT_DPI))
      .addOption(
        new Option("--order <order>", "verdict: FAIL first, then FLAG, PASS, UNANCHORED; input: as given")
          .choices(["verdict", "input"])
          .default("verdict"),
      )
      .option("--ocr <mode>", OCR_FLAG_HELP)
      .option("--inline-images", "put the crops inside the HTML (one file) instead of a folder beside it")
      .option("--json", "print the verify report as JSON, with the report's path"),
  ).action((source: string, flags: ReportFlags) =>
    runAction(io, flags.json, () => {
      const dpi = parseDpi(flags.dpi);
      const ctx = commandContext(io, flags);
      const evidence = evidenceFileList(readTextInput(flags.evidence, "evidence file"), flags.evidence);
      const input = {
        source,
        evidence,
        out: flags.out,
        dpi,
        order: flags.order as "verdict" | "input" | undefined,
        inline_images: flags.inlineImages,
        ...ocrOption(flags.ocr),
        password: flags.password,
      };
      return runAndPrint(io, reportOperation, input, ctx, flags.json);
    }),
  );
}
