/**
 * `run report`: outputs/report.md and outputs/report.html of an evidence run, rendered from its
 * checked outputs. Re-rendering the same outputs gives the same bytes.
 */
import { readRunOutputs } from "../../evidence/outputs.js";
import { RUN_FILES, type RunInfo, runPath } from "../../evidence/run.js";
import { renderRunReportHtml } from "./html.js";
import { renderRunReportMarkdown } from "./markdown.js";
import { buildRunReportModel } from "./model.js";
import type { RunReportFormat } from "./options.js";
import { writeAllOrNothing } from "./write.js";

export { DEFAULT_MAX_CROPS, RUN_REPORT_FORMATS, type RunReportFormat } from "./options.js";

export interface RunReportOptions {
  format?: RunReportFormat;
  maxCrops?: number;
  cacheDir?: string;
  timeoutMs?: number;
}

export interface RunReportWritten {
  run_id: string;
  result_sha256: string;
  report_md: string | null;
  report_html: string | null;
  accepted: number;
  unresolved: number;
  crops: number;
}

export async function writeRunReport(
  runOrDir: RunInfo | string,
  options: RunReportOptions = {},
): Promise<RunReportWritten> {
  const format = options.format ?? "both";
  const outputs = await readRunOutputs(runOrDir, { cacheDir: options.cacheDir });
  const withHtml = format !== "md";
  const model = await buildRunReportModel(outputs, {
    maxCrops: withHtml ? options.maxCrops : 0,
    timeoutMs: options.timeoutMs,
    cacheDir: options.cacheDir,
    passages: withHtml,
  });
  const md = format !== "html" ? runPath(outputs.run, RUN_FILES.outputs, "report.md") : null;
  const html = withHtml ? runPath(outputs.run, RUN_FILES.outputs, "report.html") : null;
  const files: { path: string; data: string }[] = [];
  if (md) files.push({ path: md, data: renderRunReportMarkdown(model) });
  if (html) files.push({ path: html, data: renderRunReportHtml(model) });
  writeAllOrNothing(files);
  return {
    run_id: model.runId,
    result_sha256: model.resultSha256,
    report_md: md,
    report_html: html,
    accepted: model.rows.length,
    unresolved: model.summary.unresolved,
    crops: model.cropsDrawn,
  };
}
