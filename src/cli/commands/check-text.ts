import type { Command } from "commander";
import { checkText, draftNeedsAnchors, formatTextCheckReport } from "../../checks/check-text.js";
import { openForChecks } from "../../checks/open-for-checks.js";
import { checkContext } from "../../checks/verify.js";
import { readDraft } from "../../prose/read-draft.js";
import {
  addDocumentOptions,
  type DocumentFlags,
  documentOptions,
  EXIT_CLEAN,
  EXIT_FAILS,
  printJson,
  readTextInput,
  runAction,
} from "../io.js";

export function register(program: Command): void {
  addDocumentOptions(
    program
      .command("check-text")
      .description(
        "check the citations written in a draft's prose (p. N, page N, Eq. (L), equation (L), Fig. (L), figure (L)) against a PDF",
      )
      .argument("<pdf>", "the PDF the draft cites")
      .argument("<draft>", "the draft as plain text, or - for stdin")
      .option("--json", "print the report as JSON"),
  ).action((pdf: string, draftPath: string, flags: DocumentFlags) =>
    runAction(flags.json, async () => {
      const draft = readTextInput(draftPath, "draft");
      const reading = readDraft(draft);
      const options = documentOptions(flags);
      const doc = await openForChecks(pdf, options, draftNeedsAnchors(reading));
      const report = await checkText(checkContext(doc, options), reading);
      if (flags.json) printJson(report);
      else
        process.stdout.write(
          formatTextCheckReport(report, `checked against ${pdf} (pdf sha256 ${doc.sha256.slice(0, 12)})`),
        );
      return report.summary.FAIL > 0 ? EXIT_FAILS : EXIT_CLEAN;
    }),
  );
}
