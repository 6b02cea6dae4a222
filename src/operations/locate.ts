import type { z } from "zod";
import { type FlowLocateReport, formatFlowLocateReport, locateInFlow } from "../checks/flow-locate.js";
import { formatLocateReport, type LocateReport, locatePdf, validateLocateText } from "../checks/locate.js";
import { kindName } from "../document/flow/readers.js";
import { openAnySource, sourcePath } from "./any-source.js";
import { defineOperation } from "./operation.js";
import type { locateInput } from "./schemas/documents.js";

export type LocateInput = z.infer<typeof locateInput.object>;

export const locateOperation = defineOperation<LocateInput, LocateReport | FlowLocateReport>({
  name: "locate",
  title:
    "Find where some words stand in a cited source (a PDF, a web page, Markdown or text), before citing them",
  description:
    "Finds every occurrence of some words in a PDF, folded as verify folds them (case, spacing, line " +
    "breaks, ligatures, quotes and dashes ignored; `...` or `…` may leave words out), each with the " +
    "physical page to cite, its printed page label, the matched text, its UTF-16 offsets in the page " +
    "text, and the boxes of its lines in PDF points (bottom-left origin), ready for a verify quotation " +
    "or a cite-check box. Up to 20 occurrences, then the count. Returns the document " +
    "`citeproof locate --json` prints. On a flow source (HTML, XHTML, Markdown, text) each occurrence " +
    "carries instead the section to cite (its heading chain), the paragraph, the region and code-point offsets.",
  schema: () => import("./schemas/documents.js").then((m) => m.locateInput),
  output: () => import("./schemas/outputs.js").then((m) => m.locateOutput),
  async run(input, ctx) {
    const text = validateLocateText(input.text, "{{text}}");
    const path = sourcePath(input);
    const opened = await openAnySource(ctx, path, { password: input.password }, input.pdf !== undefined);
    if (opened.kind !== "pdf") return locateInFlow(opened.doc, text);
    return locatePdf(opened.source, text, { ...ctx.open, password: input.password });
  },
  json: (report) => report,
  format: (report, input) => {
    const header = `${sourcePath(input)} (sha256 ${report.document.sha256.slice(0, 12)}, `;
    return "pages" in report.document
      ? formatLocateReport(report as LocateReport, `${header}${report.document.pages} pages)`)
      : formatFlowLocateReport(report as FlowLocateReport, `${header}${kindName(report.document.kind)})`);
  },
  exitCode: (report) => (report.count > 0 ? 0 : 1),
});
