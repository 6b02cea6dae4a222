import { resolve } from "node:path";
import type { z } from "zod";
import { type CiteCheckInput, parseCiteCheckRequest } from "../checks/cite-check/request.js";
import type { CiteCheckReport } from "../checks/cite-check/result.js";
import { citeCheck } from "../checks/cite-check/run.js";
import { CITE_VERDICTS } from "../checks/cite-check/verdicts.js";
import { defineOperation, type OperationContext } from "./operation.js";
import type { citeCheckInput } from "./schemas/cite-check.js";

export type CiteCheckRequest = z.infer<typeof citeCheckInput.object>;

export const citeCheckOperation = defineOperation<CiteCheckRequest, CiteCheckReport>({
  name: "cite_check",
  title: "Check located quotes in a PDF",
  description:
    "Checks that each quote occurs on its physical page inside its bounding box, case-sensitively, " +
    "with the glyph geometry of the PDF (OCR only when asked). The request form of `citeproof " +
    'cite-check --request`: {"sources":[{"path":...}|{"url":...}],"citations":[{"id","quote","page",' +
    '"bounding_box":{"left","bottom","right","top"}}], normalization, ocr, ...}. Returns one result per ' +
    "citation in input order: verdict verified_exact | verified_normalized | unmatched | " +
    "insufficient_evidence, a reason code, and up to 8 supporting locations with their boxes.",
  openWorld: true,
  schema: () => import("./schemas/cite-check.js").then((m) => m.citeCheckInput),
  output: () => import("./schemas/outputs.js").then((m) => m.citeCheckOutput),
  run(request, ctx) {
    // The request's own rules (limits across citations, URL forms) are the checks layer's. A relative
    // path starts from the context's directory, and the report names it in full.
    const input = parseCiteCheckRequest({ ...request, operation: "cite_check" });
    const source = "path" in input.source ? { path: resolve(ctx.cwd, input.source.path) } : input.source;
    return checkCitations({ ...input, source }, ctx);
  },
  json: (report) => report,
  format: (report) => formatCiteCheckReport(report),
  exitCode: (report) => (verifiedAll(report) ? 0 : 1),
});

/**
 * Runs a validated check. A local source is read under the context's path policy (`allowRoots`), and
 * the report names it as it was given.
 */
export function checkCitations(
  input: CiteCheckInput,
  ctx: OperationContext,
  password?: string,
): Promise<CiteCheckReport> {
  return citeCheck(input, {
    allowRoots: ctx.access,
    cacheDir: ctx.open.cacheDir,
    noCache: ctx.open.noCache,
    password,
    privateUrls: ctx.privateUrls ?? "allow",
    ...(ctx.ocrEngine ? { ocrEngine: ctx.ocrEngine } : {}),
  });
}

function verifiedAll(report: CiteCheckReport): boolean {
  return report.results.every((r) => r.verdict === "verified_exact" || r.verdict === "verified_normalized");
}

export function formatCiteCheckReport(report: CiteCheckReport): string {
  const pages = report.source.pages === null ? "" : `, ${report.source.pages} pages`;
  const lines = [`${report.source.origin} (sha256 ${report.source.sha256.slice(0, 12)}${pages})`];
  for (const r of report.results) {
    const id = r.id !== undefined ? `[${r.id}] ` : "";
    const layer = r.evidence_layer?.kind === "ocr" ? " (OCR)" : "";
    lines.push(`  ${r.verdict.padEnd(21)} ${id}p. ${r.page}${layer}: ${r.message} [${r.reason}]`);
    for (const loc of r.locations) {
      const box = loc.boxes
        .map((b) => `${b.left.toFixed(2)},${b.bottom.toFixed(2)},${b.right.toFixed(2)},${b.top.toFixed(2)}`)
        .join(" ");
      lines.push(`      ${loc.geometry_level} utf16 ${loc.start_utf16}-${loc.end_utf16}: ${box}`);
    }
  }
  lines.push(
    `${report.results.length} citation(s): ${CITE_VERDICTS.map((v) => `${report.summary[v]} ${v}`).join(", ")}`,
  );
  const verified = report.summary.verified_exact + report.summary.verified_normalized;
  lines.push(
    verified === report.results.length
      ? "exit 0: every citation is verified"
      : "exit 1: at least one citation is not verified",
  );
  return `${lines.join("\n")}\n`;
}
