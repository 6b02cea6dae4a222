import type { Command } from "commander";
import { formatLocateReport, locatePdf, validateLocateText } from "../../checks/locate.js";
import {
  addDocumentOptions,
  type DocumentFlags,
  documentOptions,
  EXIT_CLEAN,
  EXIT_FAILS,
  printJson,
  runAction,
} from "../io.js";

interface LocateFlags extends DocumentFlags {
  text?: string;
}

export function register(program: Command): void {
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
    runAction(flags.json, async () => {
      const text = validateLocateText(flags.text, "--text");
      const report = await locatePdf(pdf, text, documentOptions(flags));
      if (flags.json) printJson(report);
      else
        process.stdout.write(
          formatLocateReport(
            report,
            `${pdf} (sha256 ${report.document.sha256.slice(0, 12)}, ${report.document.pages} pages)`,
          ),
        );
      return report.count > 0 ? EXIT_CLEAN : EXIT_FAILS;
    }),
  );
}
