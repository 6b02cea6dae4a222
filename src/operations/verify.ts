import type { z } from "zod";
import { toEvidenceRecords } from "../checks/evidence-record.js";
import type { FlowVerifyReport } from "../checks/flow-verify.js";
import type { CheckResult } from "../checks/result.js";
import type { VerifyReport } from "../checks/verify.js";
import { kindName } from "../document/flow/kind-names.js";
import { verifyPdf } from "../reading/cited-pages-first.js";
import { readAnySource, sourcePath } from "./any-source.js";
import { callDeadline, defineOperation } from "./operation.js";
import type { verifyInput } from "./schemas/verify.js";

export type VerifyInput = z.infer<typeof verifyInput.object>;

export const verifyOperation = defineOperation<VerifyInput, VerifyReport | FlowVerifyReport>({
  name: "verify",
  title: "Verify evidence against a cited source (a PDF, a web page, Markdown or text)",
  description:
    "Checks evidence records (quoted words on a page, a page, an equation label, a figure label) " +
    "against a PDF, mechanically; or quoted words (optionally under a named section: a heading's words or " +
    "number) against a flow source (HTML, XHTML, Markdown, plain text) or a PDF (its layout's headings; " +
    "with page too, both must hold). Returns {document:{sha256,pages} " +
    "(a flow source: {sha256,kind,paragraphs,headings}), results:[{id,kind,verdict,reason," +
    "message,evidence}]} in input order; verdict PASS (the words are on that page / the label is printed " +
    "as claimed), FLAG (the page exists, wording unchecked), FAIL (not there; evidence says what was " +
    "seen instead) or UNANCHORED (no page named, nothing checked).",
  schema: () => import("./schemas/verify.js").then((m) => m.verifyInput),
  output: () => import("./schemas/outputs.js").then((m) => m.verifyOutput),
  async run(input, ctx) {
    const records = toEvidenceRecords(input.evidence);
    const deadline = callDeadline(ctx);
    const path = sourcePath(input);
    const pdfOnly = { password: input.password, ocr: input.ocr };
    const read = await readAnySource(ctx, path, pdfOnly, input.pdf !== undefined);
    if (read.kind !== "pdf") {
      // Refused before the source is read (and cached): only an EPUB may print page labels. The flow
      // path's code is loaded only for a flow source.
      if (read.kind !== "epub")
        (await import("../checks/flow-locators.js")).assertFlowLocators(read.kind, false, records, path);
      const { verifyFlowSource } = await import("../reading/flow-results.js");
      return verifyFlowSource(read.source, read.kind, records, path, {
        cacheDir: ctx.open.cacheDir,
        noCache: ctx.open.noCache,
        timeoutMs: ctx.open.timeoutMs,
      });
    }
    return verifyPdf(read.source, records, {
      ...ctx.open,
      deadline,
      password: input.password,
      ...(input.ocr ? { ocr: input.ocr } : {}),
      ...(ctx.ocrEngine ? { ocrEngine: ctx.ocrEngine } : {}),
    });
  },
  json: (report) => report,
  format: (report, input) => formatVerifyReport(sourcePath(input), report),
  exitCode: (report) => failsIn(report.results),
});

/** 1 when a record FAILs against the document. */
export function failsIn(results: readonly { verdict: string }[]): 0 | 1 {
  return results.some((r) => r.verdict === "FAIL") ? 1 : 0;
}

export function formatVerifyReport(
  pdf: string,
  report: {
    document: { sha256: string; pages: number } | FlowVerifyReport["document"];
    results: CheckResult[];
  },
): string {
  const lines = [`${pdf} (sha256 ${report.document.sha256.slice(0, 12)}, ${documentSize(report.document)})`];
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

/** `12 pages`, or for a flow source `Markdown, 40 paragraphs, 6 headings`. */
export function documentSize(document: { pages: number } | FlowVerifyReport["document"]): string {
  if ("pages" in document) return `${document.pages} pages`;
  return `${kindName(document.kind)}, ${document.paragraphs} paragraphs, ${document.headings} headings`;
}

function describe(r: CheckResult): string {
  const id = r.id !== undefined ? `[${r.id}] ` : "";
  const e = r.evidence;
  switch (r.kind) {
    case "quotation": {
      const quote = e.quotation !== undefined ? ` "${e.quotation}"` : "";
      const where =
        typeof e.page === "number"
          ? `p. ${e.page}`
          : typeof e.section === "string"
            ? `§ ${e.section}`
            : "quotation";
      return `${id}${where}${quote}`;
    }
    case "page":
      return `${id}p. ${e.page}`;
    case "equation":
      return `${id}Eq. (${e.label ?? "?"})`;
    case "figure":
      return `${id}Fig. (${e.label ?? "?"})`;
  }
}
