import type { z } from "zod";
import {
  checkText,
  draftNeedsAnchors,
  formatTextCheckReport,
  type TextCheckReport,
} from "../checks/check-text.js";
import { checkTextFlow, type FlowTextCheckReport } from "../checks/flow-check-text.js";
import { DEFAULT_OCR_TIMEOUT_MS } from "../checks/ocr-quotations.js";
import { checkContext } from "../checks/verify.js";
import { kindName } from "../document/flow/readers.js";
import type { DraftCheckReport } from "../drafts/check-draft.js";
import { readDraft } from "../prose/read-draft.js";
import { openForChecks } from "../reading/open-for-checks.js";
import { openAnySource, sourcePath } from "./any-source.js";
import { draftSourceChoice, runDraftCheck } from "./check-draft.js";
import { formatDraftReport } from "./draft-report.js";
import { callDeadline, defineOperation } from "./operation.js";
import type { checkTextInput } from "./schemas/documents.js";

export type CheckTextInput = z.infer<typeof checkTextInput.object>;

export const checkTextOperation = defineOperation<
  CheckTextInput,
  TextCheckReport | FlowTextCheckReport | DraftCheckReport
>({
  name: "check_text",
  title: "Check a draft's citations against a PDF or a flow source, or against its bibliography's sources",
  description:
    "Reads the citations written in a draft's prose (p. N, page N, Eq. (L), equation (L), Fig. (L), " +
    'figure (L), any case) and the "double-quoted" words in the same sentence, and checks each against ' +
    "the PDF as verify does; no model is involved. Returns {document, citations:[{verdict, anchor, " +
    "quote, reason, message, line, ...}], unsupported_forms, dropped_quotations, summary, not_verified}. " +
    "Forms such as 'pp. 3-4' or 'Fig. 1' are listed as unsupported, not checked. With source a flow source " +
    "(HTML, Markdown, text), each quotation is checked in the section its sentence names (§ 3.2, Section 3.2, " +
    'Sec. 3.2, section "Methods"), or in the whole text; on a PDF, a quotation with no page but such a ' +
    "section is checked under that heading of the PDF's layout. With bib instead of pdf: " +
    "pandoc ([@key, p. 7]), LaTeX (\\cite[p.~7]{key}, \\citep, \\parencite, ...), numeric ([3, p. 7]) and " +
    "author-year ((Smith 2024, p. 7)) citations are resolved through the bibliography and each quotation is " +
    "checked against its entry's file at its locator; returns {draft, bibliography, sources:[{path|url, sha256, " +
    "kind, identity}], citations:[{key, anchor, quote, verdict, reason, line, column, source}], summary}.",
  schema: () => import("./schemas/documents.js").then((m) => m.checkTextInput),
  output: () => import("./schemas/outputs.js").then((m) => m.checkTextOutput),
  async run(input, ctx) {
    const named = input.source !== undefined ? sourcePath(input) : input.pdf;
    if (draftSourceChoice({ pdf: named, bib: input.bib }) === "bib")
      return runDraftCheck({ ...input, bib: input.bib as string }, ctx);
    const path = named as string;
    const opened = await openAnySource(
      ctx,
      path,
      { password: input.password, ocr: input.ocr },
      input.source === undefined,
    );
    if (opened.kind !== "pdf") return checkTextFlow(opened.doc, input.draft);
    const options = { ...ctx.open, password: input.password, deadline: callDeadline(ctx) };
    const reading = readDraft(input.draft);
    const doc = await openForChecks(opened.source, options, draftNeedsAnchors(reading));
    const ocr = input.ocr
      ? {
          mode: input.ocr,
          doc,
          timeoutMs: options.timeoutMs ?? DEFAULT_OCR_TIMEOUT_MS,
          password: input.password,
          ...(ctx.ocrEngine ? { engine: { engine: ctx.ocrEngine } } : {}),
        }
      : undefined;
    return checkText(
      checkContext(doc, options),
      reading,
      undefined,
      ocr,
      options.deadline.totalMs,
      input.draft,
    );
  },
  json: (report) => report,
  format: (report, input) =>
    "sources" in report
      ? formatDraftReport(report, input.bib ?? "")
      : formatTextCheckReport(
          report,
          `checked against ${input.source ?? input.pdf} (${"kind" in report.document ? kindName(report.document.kind) : "pdf"} sha256 ${report.document.sha256.slice(0, 12)})`,
        ),
  exitCode: (report) => (report.summary.FAIL > 0 ? 1 : 0),
});
