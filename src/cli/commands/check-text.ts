import type { Command } from "commander";
import { checkTextOperation } from "../../operations/check-text.js";
import type { CommandIo } from "../cli-io.js";
import {
  addDocumentOptions,
  commandContext,
  type DocumentFlags,
  readTextInput,
  runAction,
  runAndPrint,
} from "../io.js";
import { OCR_FLAG_HELP, ocrOption } from "../ocr-flag.js";

export function register(program: Command, io: CommandIo): void {
  addDocumentOptions(
    program
      .command("check-text")
      .description(
        "check the citations written in a draft's prose (p. N, page N, Eq. (L), equation (L), Fig. (L), figure (L)) against a PDF",
      )
      .argument("<pdf>", "the PDF the draft cites")
      .argument("<draft>", "the draft as plain text, or - for stdin")
      .option("--ocr <mode>", OCR_FLAG_HELP)
      .option("--json", "print the report as JSON"),
  ).action((pdf: string, draftPath: string, flags: DocumentFlags & { ocr?: string }) =>
    runAction(io, flags.json, () => {
      const draft = readTextInput(draftPath, "draft");
      const ctx = commandContext(io, flags);
      return runAndPrint(
        io,
        checkTextOperation,
        { pdf, draft, password: flags.password, ...ocrOption(flags.ocr) },
        ctx,
        flags.json,
      );
    }),
  );
}
