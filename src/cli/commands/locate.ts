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
        "find every occurrence of some words in a PDF (page, printed label, offsets, line boxes) or a flow source (section, paragraph, code-point offsets), folded as verify folds them, ellipses allowed",
      )
      .argument(
        "<source>",
        "the source to read, a path or an http(s) URL (a PDF, HTML, XHTML, Markdown, text, EPUB, DOCX, ODT or JATS)",
      )
      .requiredOption("--text <words>", "the words to find")
      .option("--json", "print the occurrences as JSON"),
  ).action((pdf: string, flags: LocateFlags) =>
    runAction(io, flags.json, () =>
      runAndPrint(
        io,
        locateOperation,
        { source: pdf, text: flags.text, password: flags.password },
        commandContext(io, flags),
        flags.json,
      ),
    ),
  );
}
