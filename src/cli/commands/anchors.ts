import type { Command } from "commander";
import { anchorsOperation } from "../../operations/anchors.js";
import type { CommandIo } from "../cli-io.js";
import { addDocumentOptions, commandContext, type DocumentFlags, runAction, runAndPrint } from "../io.js";
import { ocrOption } from "../ocr-flag.js";

export function register(program: Command, io: CommandIo): void {
  addDocumentOptions(
    program
      .command("anchors")
      .description(
        "list the equation labels and figure captions found in a PDF, and every rejected equation-label candidate with its reasons",
      )
      .argument("<pdf>", "the PDF to read")
      .option(
        "--ocr <mode>",
        "auto or tesseract: also list the equation labels OCR finds on the scanned pages (layer ocr)",
      )
      .option("--json", "print the anchors record as JSON")
      .option(
        "--explain",
        "with every equation-label and figure-caption candidate, the features measured on the page and the decision's predicates that held",
      ),
  ).action((pdf: string, flags: DocumentFlags & { ocr?: string; explain?: boolean }) =>
    runAction(io, flags.json, () =>
      runAndPrint(
        io,
        anchorsOperation,
        {
          pdf,
          password: flags.password,
          ...ocrOption(flags.ocr),
          ...(flags.explain ? { explain: true } : {}),
        },
        commandContext(io, flags),
        flags.json,
      ),
    ),
  );
}
