import type { Command } from "commander";
import { parseEvidenceJson } from "../../checks/evidence-record.js";
import { verifyOperation } from "../../operations/verify.js";
import {
  addDocumentOptions,
  commandContext,
  type DocumentFlags,
  readTextInput,
  runAction,
  runAndPrint,
} from "../io.js";
import { OCR_FLAG_HELP, ocrOption } from "../ocr-flag.js";

interface VerifyFlags extends DocumentFlags {
  evidence: string;
  ocr?: string;
}

export function register(program: Command): void {
  addDocumentOptions(
    program
      .command("verify")
      .description("check evidence records (quotation, page, equation, figure) against a PDF")
      .argument("<pdf>", "the PDF the evidence cites")
      .requiredOption("--evidence <file>", "JSON array of evidence records")
      .option("--ocr <mode>", OCR_FLAG_HELP)
      .option("--json", "print the report as JSON"),
  ).action((pdf: string, flags: VerifyFlags) =>
    runAction(flags.json, () => {
      const evidence = parseEvidenceJson(readTextInput(flags.evidence, "evidence file"), flags.evidence);
      const ctx = commandContext(flags);
      return runAndPrint(
        verifyOperation,
        { pdf, evidence, password: flags.password, ...ocrOption(flags.ocr) },
        ctx,
        flags.json,
      );
    }),
  );
}
