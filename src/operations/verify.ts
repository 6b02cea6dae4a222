import type { z } from "zod";
import { verifyPdf } from "../checks/cited-pages-first.js";
import { toEvidenceRecords } from "../checks/evidence-record.js";
import type { CheckResult } from "../checks/result.js";
import type { VerifyReport } from "../checks/verify.js";
import { callDeadline, defineOperation } from "./operation.js";
import { inputPdf } from "./paths.js";
import type { verifyInput } from "./schemas/documents.js";

export type VerifyInput = z.infer<typeof verifyInput.object>;

export const verifyOperation = defineOperation<VerifyInput, VerifyReport>({
  name: "verify",
  title: "Verify evidence against a PDF",
  description:
    "Checks evidence records (quoted words on a page, a page, an equation label, a figure label) " +
    "against a PDF, mechanically. Returns {document:{sha256,pages}, results:[{id,kind,verdict,reason," +
    "message,evidence}]} in input order; verdict PASS (the words are on that page / the label is printed " +
    "as claimed), FLAG (the page exists, wording unchecked), FAIL (not there; evidence says what was " +
    "seen instead) or UNANCHORED (no page named, nothing checked).",
  schema: () => import("./schemas/index.js").then((m) => m.INPUT_SCHEMAS.verify),
  output: () => import("./schemas/outputs.js").then((m) => m.verifyOutput),
  async run(input, ctx) {
    const records = toEvidenceRecords(input.evidence);
    const deadline = callDeadline(ctx);
    return verifyPdf(await inputPdf(ctx, input.pdf), records, {
      ...ctx.open,
      deadline,
      password: input.password,
      ...(input.ocr ? { ocr: input.ocr } : {}),
    });
  },
  json: (report) => report,
  format: (report, input) => formatVerifyReport(input.pdf, report),
  exitCode: (report) => failsIn(report.results),
});

/** 1 when a record FAILs against the document. */
export function failsIn(results: readonly { verdict: string }[]): 0 | 1 {
  return results.some((r) => r.verdict === "FAIL") ? 1 : 0;
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
      const quote = e.quotation !== undefined ? ` "${e.quotation}"` : "";
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
