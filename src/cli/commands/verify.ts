import type { Command } from "commander";
import { evidenceFileList, parseJsonInput } from "../../checks/evidence-record.js";
import { CiteproofError } from "../../errors.js";
import { verifyOperation } from "../../operations/verify.js";
import type { CommandIo } from "../cli-io.js";
import {
  addDocumentOptions,
  commandContext,
  type DocumentFlags,
  nonNegativeInt,
  readTextInput,
  runAction,
  runAndPrint,
} from "../io.js";
import { OCR_FLAG_HELP, ocrOption } from "../ocr-flag.js";

interface VerifyFlags extends DocumentFlags {
  evidence: string;
  ocr?: string;
  citationsFormat?: string;
  documentIndex?: string;
}

export function register(program: Command, io: CommandIo): void {
  addDocumentOptions(
    program
      .command("verify")
      .description(
        "check evidence records (quotation, page, equation, figure) against a PDF, or quotations (by section) against a web page, Markdown or text",
      )
      .argument(
        "<source>",
        "the source the evidence cites, a path or an http(s) URL (a PDF, HTML, XHTML, Markdown, text, EPUB, DOCX, ODT or JATS; kind told by content)",
      )
      .requiredOption(
        "--evidence <file>",
        "JSON array of evidence records (or citations, with --citations-format)",
      )
      .option("--ocr <mode>", OCR_FLAG_HELP)
      .option(
        "--citations-format <format>",
        "the evidence file holds another tool's citations: anthropic (Messages API page_location blocks) or w3c (Web Annotation TextQuoteSelectors)",
      )
      .option(
        "--document-index <n>",
        "with --citations-format anthropic: the request's document this PDF is (default 0)",
      )
      .option("--json", "print the report as JSON"),
  ).action((pdf: string, flags: VerifyFlags) =>
    runAction(io, flags.json, async () => {
      const text = readTextInput(flags.evidence, "evidence file");
      const ctx = commandContext(io, flags);
      if (flags.citationsFormat !== undefined) {
        if (flags.ocr !== undefined)
          throw new CiteproofError("USAGE", "--ocr is not read with --citations-format");
        // Another tool's citations: their readers are loaded only for them.
        const { citationsFormat } = await import("../../checks/citation-formats.js");
        const { verifyCitationsOperation } = await import("../../operations/verify-citations.js");
        const format = citationsFormat(flags.citationsFormat, "--citations-format");
        const documentIndex = nonNegativeInt(flags.documentIndex, "--document-index");
        const citations = parseJsonInput(text, flags.evidence);
        if (typeof citations !== "object" || citations === null)
          throw new CiteproofError(
            "EVIDENCE_INVALID",
            `a${format === "anthropic" ? "n" : ""} ${format} citations file must be a JSON object or array`,
          );
        return runAndPrint(
          io,
          verifyCitationsOperation,
          {
            source: pdf,
            format,
            citations: citations as unknown[],
            password: flags.password,
            ...(documentIndex !== undefined ? { document_index: documentIndex } : {}),
          },
          ctx,
          flags.json,
        );
      }
      if (flags.documentIndex !== undefined)
        throw new CiteproofError("USAGE", "--document-index is read only with --citations-format anthropic");
      const evidence = evidenceFileList(text, flags.evidence);
      return runAndPrint(
        io,
        verifyOperation,
        { source: pdf, evidence, password: flags.password, ...ocrOption(flags.ocr) },
        ctx,
        flags.json,
      );
    }),
  );
}
