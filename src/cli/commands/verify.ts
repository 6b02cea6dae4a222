import type { Command } from "commander";
import { verifyPdf } from "../../checks/cited-pages-first.js";
import { parseEvidenceJson } from "../../checks/evidence-record.js";
import type { CheckResult } from "../../checks/result.js";
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

interface VerifyFlags extends DocumentFlags {
  evidence: string;
}

export function register(program: Command): void {
  addDocumentOptions(
    program
      .command("verify")
      .description("check evidence records (quotation, page, equation, figure) against a PDF")
      .argument("<pdf>", "the PDF the evidence cites")
      .requiredOption("--evidence <file>", "JSON array of evidence records")
      .option("--json", "print the report as JSON"),
  ).action((pdf: string, flags: VerifyFlags) =>
    runAction(flags.json, async () => {
      const records = parseEvidenceJson(readTextInput(flags.evidence, "evidence file"), flags.evidence);
      const options = documentOptions(flags);
      const report = await verifyPdf(pdf, records, options);
      if (flags.json) printJson(report);
      else process.stdout.write(formatVerifyReport(pdf, report));
      return report.results.some((r) => r.verdict === "FAIL") ? EXIT_FAILS : EXIT_CLEAN;
    }),
  );
}

export function formatVerifyReport(
  pdf: string,
  report: { document: { sha256: string; pages: number }; results: CheckResult[] },
): string {
  const lines = [`${pdf} (sha256 ${report.document.sha256.slice(0, 12)}, ${report.document.pages} pages)`];
  for (const r of report.results)
    lines.push(`  ${r.verdict.padEnd(5)} ${describe(r)}: ${r.message} [${r.reason}]`);
  const count = (v: string) => report.results.filter((r) => r.verdict === v).length;
  lines.push(
    `${report.results.length} record(s): ${count("PASS")} PASS, ${count("FLAG")} FLAG, ${count("FAIL")} FAIL; ${count("UNANCHORED")} unanchored`,
  );
  lines.push(
    count("FAIL") > 0 ? "exit 1: at least one record FAILs against the document" : "exit 0: no record FAILs",
  );
  return `${lines.join("\n")}\n`;
}

function describe(r: CheckResult): string {
  const id = r.id !== undefined ? `[${r.id}] ` : "";
  const e = r.evidence;
  switch (r.kind) {
    case "quotation": {
      const quote = typeof e.quotation === "string" ? ` "${e.quotation}"` : "";
      return `${id}${typeof e.page === "number" ? `p. ${e.page}` : "quotation"}${quote}`;
    }
    case "page":
      return `${id}p. ${e.page}`;
    case "equation":
      return `${id}Eq. (${e.label ?? "?"})`;
    case "figure":
      return `${id}Fig. (${e.label ?? "?"})`;
  }
}
