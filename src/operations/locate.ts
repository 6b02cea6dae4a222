import type { z } from "zod";
import { formatLocateReport, type LocateReport, locatePdf, validateLocateText } from "../checks/locate.js";
import { defineOperation } from "./operation.js";
import { inputPdf } from "./paths.js";
import type { locateInput } from "./schemas/documents.js";

export type LocateInput = z.infer<typeof locateInput.object>;

export const locateOperation = defineOperation<LocateInput, LocateReport>({
  name: "locate",
  title: "Find where some words stand in a PDF, before citing them",
  description:
    "Finds every occurrence of some words in a PDF, folded as verify folds them (case, spacing, line " +
    "breaks, ligatures, quotes and dashes ignored; `...` or `…` may leave words out), each with the " +
    "physical page to cite, its printed page label, the matched text, its UTF-16 offsets in the page " +
    "text, and the boxes of its lines in PDF points (bottom-left origin), ready for a verify quotation " +
    "or a cite-check box. Up to 20 occurrences, then the count. Returns the document " +
    "`citeproof locate --json` prints.",
  schema: () => import("./schemas/index.js").then((m) => m.INPUT_SCHEMAS.locate),
  output: () => import("./schemas/outputs.js").then((m) => m.locateOutput),
  async run(input, ctx) {
    const text = validateLocateText(input.text, "{{text}}");
    return locatePdf(await inputPdf(ctx, input.pdf), text, { ...ctx.open, password: input.password });
  },
  json: (report) => report,
  format: (report, input) =>
    formatLocateReport(
      report,
      `${input.pdf} (sha256 ${report.document.sha256.slice(0, 12)}, ${report.document.pages} pages)`,
    ),
  exitCode: (report) => (report.count > 0 ? 0 : 1),
});
