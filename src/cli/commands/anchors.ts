import type { Command } from "commander";
import { anchorsOperation } from "../../operations/anchors.js";
import { addDocumentOptions, commandContext, type DocumentFlags, runAction, runAndPrint } from "../io.js";

export function register(program: Command): void {
  addDocumentOptions(
    program
      .command("anchors")
      .description(
        "list the equation labels and figure captions found in a PDF, and every rejected equation-label candidate with its reasons",
      )
      .argument("<pdf>", "the PDF to read")
      .option("--json", "print the anchors record as JSON"),
  ).action((pdf: string, flags: DocumentFlags) =>
    runAction(flags.json, () =>
      runAndPrint(anchorsOperation, { pdf, password: flags.password }, commandContext(flags), flags.json),
    ),
  );
}
