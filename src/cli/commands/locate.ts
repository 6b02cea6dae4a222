import type { Command } from "commander";
import { locateOperation } from "../../operations/locate.js";
import type { CommandIo } from "../cli-io.js";
import { addDocumentOptions, commandContext, type DocumentFlags, runAction, runAndPrint } from "../io.js";

interface LocateFlags extends DocumentFlags {
  text: string;
}

export function register(program: Command, io: CommandIo): void {
  addDocumentOptions(
    program
      .command("locate")
      .description(
        "find every occurrence of some words in a PDF (folded as verify folds them, ellipses allowed): page, printed label, offsets and line boxes",
      )
      .argument("<pdf>", "the PDF to read")
      .requiredOption("--text <words>", "the words to find")
      .option("--json", "print the occurrences as JSON"),
  ).action((pdf: string, flags: LocateFlags) =>
    runAction(io, flags.json, () =>
      runAndPrint(
        io,
        locateOperation,
        { pdf, text: flags.text, password: flags.password },
        commandContext(io, flags),
        flags.json,
      ),
    ),
  );
}
