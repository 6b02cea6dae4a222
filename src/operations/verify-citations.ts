import type { z } from "zod";
import {
  type CitationsReport,
  citationRecords,
  readCitations,
  traceResults,
} from "../checks/citation-formats.js";
import { validateEvidence } from "../checks/evidence-record.js";
import { verifyPdf } from "../reading/cited-pages-first.js";
import { openCitedSource, sourcePath } from "./any-source.js";
import { defineOperation } from "./operation.js";
import type { verifyCitationsInput } from "./schemas/documents.js";
import { failsIn, formatVerifyReport } from "./verify.js";

export type VerifyCitationsInput = z.infer<typeof verifyCitationsInput.object>;

export const verifyCitationsOperation = defineOperation<VerifyCitationsInput, CitationsReport>({
  name: "verify_citations",
  title: "Verify citations another tool emitted against a PDF or a flow source",
  description:
    "Checks citations as another tool wrote them against a PDF, as verify checks quotations: " +
    'format "anthropic" reads the citation blocks of Anthropic\'s Messages API (a response, its content ' +
    "blocks or a list of citations; page_location: cited_text on start_page_number up to " +
    'end_page_number, exclusive); format "w3c" reads W3C Web Annotations whose selector is a ' +
    "TextQuoteSelector (exact, prefix, suffix), the page from a FragmentSelector page=N or a page " +
    "field; on a flow source (HTML, Markdown, text, EPUB, DOCX, ODT, JATS) the words are found in the " +
    "whole document and a TextPositionSelector's code-point offsets are compared with the match. " +
    "Returns verify's document, each result with the citation's index and place (at) in the input.",
  schema: () => import("./schemas/documents.js").then((m) => m.verifyCitationsInput),
  output: () => import("./schemas/outputs.js").then((m) => m.verifyCitationsOutput),
  async run(input, ctx) {
    // Paths in messages and in each result's `at` are the citations' own (`content[1].citations[0]`).
    const parsed = readCitations(input.citations, input.format, input.document_index ?? 0);
    // Checked before the source is read: every record a flow source would get (a PDF's are among them).
    const all = validateEvidence(citationRecords(parsed, true), "the citations");
    const path = sourcePath(input);
    const opened = await openCitedSource(ctx, input, all);
    const flow = opened.kind !== "pdf";
    const records = validateEvidence(citationRecords(parsed, flow), "the citations");
    if (opened.kind !== "pdf") {
      const { verifyFlow } = await import("../checks/flow-verify.js");
      return traceResults(verifyFlow(opened.doc, records, path), parsed, true);
    }
    const report = await verifyPdf(opened.source, records, {
      ...ctx.open,
      password: input.password,
    });
    return traceResults(report, parsed);
  },
  json: (report) => report,
  format: (report, input) => {
    const skipped = report.skipped.length;
    const note = skipped > 0 ? `${skipped} citation(s) of other documents skipped\n` : "";
    return formatVerifyReport(sourcePath(input), report) + note;
  },
  exitCode: (report) => failsIn(report.results),
});
