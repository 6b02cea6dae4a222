import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { parseEvidenceJson } from "../../checks/evidence-record.js";
import { closeRenderer, MAX_RENDER_DPI, MIN_RENDER_DPI } from "../../document/render.js";
import { CiteproofError } from "../../errors.js";
import { buildReport, DEFAULT_REPORT_DPI } from "../../report/build.js";
import { renderReportHtml } from "../../report/html.js";
import { writeOutputAtomic } from "../../report/write.js";
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
import { formatVerifyReport } from "./verify.js";

interface ReportFlags extends DocumentFlags {
  evidence: string;
  out: string;
  dpi: string;
}

export function register(program: Command): void {
  addDocumentOptions(
    program
      .command("report")
      .description(
        "verify evidence records and write an HTML report showing each cited place cropped from the PDF",
      )
      .argument("<pdf>", "the PDF the evidence cites")
      .requiredOption("--evidence <file>", "JSON array of evidence records")
      .requiredOption("--out <file>", "the HTML file to write (replaced atomically)")
      .option("--dpi <dpi>", "resolution of the crops", String(DEFAULT_REPORT_DPI))
      .option("--json", "print the verify report as JSON, with the report's path"),
  ).action((pdf: string, flags: ReportFlags) =>
    runAction(flags.json, async () => {
      const dpi = parseDpi(flags.dpi);
      assertFolder(flags.out);
      const records = parseEvidenceJson(readTextInput(flags.evidence, "evidence file"), flags.evidence);
      try {
        const report = await buildReport(pdf, records, { ...documentOptions(flags), dpi });
        const html = renderReportHtml(report);
        writeOutputAtomic(flags.out, html);
        const results = report.sections.map((s) => s.result);
        if (flags.json) {
          printJson({
            document: report.document,
            results,
            report: { path: resolve(flags.out), bytes: Buffer.byteLength(html) },
          });
        } else {
          process.stdout.write(formatVerifyReport(pdf, { document: report.document, results }));
          process.stdout.write(`report written to ${flags.out}\n`);
        }
        return results.some((r) => r.verdict === "FAIL") ? EXIT_FAILS : EXIT_CLEAN;
      } finally {
        await closeRenderer();
      }
    }),
  );
}

function parseDpi(value: string): number {
  const dpi = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || dpi < MIN_RENDER_DPI || dpi > MAX_RENDER_DPI) {
    throw new CiteproofError(
      "USAGE",
      `--dpi must be a number from ${MIN_RENDER_DPI} to ${MAX_RENDER_DPI} (got ${JSON.stringify(value)})`,
    );
  }
  return dpi;
}

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
    throw new CiteproofError("OUTPUT_UNWRITABLE", `cannot write ${out}: the folder ${folder} does not exist`);
  }
}
