import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { z } from "zod";
import { toEvidenceRecords } from "../checks/evidence-record.js";
import { type FlowVerifyReport, verifyFlow } from "../checks/flow-verify.js";
import type { CheckResult } from "../checks/result.js";
import { closeRenderer } from "../document/render.js";
import { CiteproofError } from "../errors.js";
import { buildFlowReport, buildReport, DEFAULT_REPORT_DPI } from "../report/build.js";
import { type WrittenReport, writeReport } from "../report/write.js";
import { openCitedSource, sourcePath } from "./any-source.js";
import { defineOperation } from "./operation.js";
import { outputPath } from "./paths.js";
import type { reportInput } from "./schemas/documents.js";
import { failsIn, formatVerifyReport } from "./verify.js";

export type ReportInput = z.infer<typeof reportInput.object>;

export interface ReportResult {
  document: { sha256: string; pages: number } | FlowVerifyReport["document"];
  results: CheckResult[];
  report: WrittenReport;
}

export const reportOperation = defineOperation<ReportInput, ReportResult>({
  name: "report",
  title: "Write an HTML report of evidence checked against a cited source",
  description:
    "Verifies evidence records as verify does and writes an HTML report showing each cited place " +
    "cropped from the PDF, or on a flow source (HTML, Markdown, text, EPUB, DOCX, ODT, JATS) the passage " +
    "of its text with its heading chain and the words marked. Returns the verify document with the " +
    "report's path and size.",
  schema: () => import("./schemas/documents.js").then((m) => m.reportInput),
  output: () => import("./schemas/outputs.js").then((m) => m.reportOutput),
  async run(input, ctx) {
    const out = outputPath(ctx, input.out);
    assertFolder(out);
    const records = toEvidenceRecords(input.evidence);
    const path = sourcePath(input);
    const opened = await openCitedSource(ctx, input, records);
    const write = (report: Parameters<typeof writeReport>[1]) => ({
      document: report.document,
      results: report.sections.map((s) => s.result),
      report: writeReport(out, report, { order: input.order, inlineImages: input.inline_images }),
    });
    if (opened.kind !== "pdf")
      return write(buildFlowReport(path, opened.doc, verifyFlow(opened.doc, records, path)));
    try {
      return write(
        await buildReport(opened.source, records, {
          ...ctx.open,
          password: input.password,
          dpi: input.dpi ?? DEFAULT_REPORT_DPI,
          ...(input.ocr ? { ocr: input.ocr } : {}),
          ...(ctx.ocrEngine ? { ocrEngine: ctx.ocrEngine } : {}),
        }),
      );
    } finally {
      await closeRenderer();
    }
  },
  json: (result) => result,
  format: (result, input) =>
    `${formatVerifyReport(sourcePath(input), result)}report written to ${input.out}\n`,
  exitCode: (result) => failsIn(result.results),
});

/** Fails before any work when the output's folder is missing. */
function assertFolder(out: string): void {
  const folder = dirname(resolve(out));
  let isDir = false;
  try {
    isDir = statSync(folder).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) {
    throw new CiteproofError(
      "OUTPUT_UNWRITABLE",
      `cannot write ${out}: the folder ${folder} does not exist`,
      {
        path: "out",
        field: "out",
      },
    );
  }
}
