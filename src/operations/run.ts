/**
 * The evidence-run operations: create a run, assemble it through the gate, verify, report, promote.
 * Commands only (`citeproof run ...`): they write a run's outputs and a knowledge folder.
 */
import type { z } from "zod";
import { type AssemblyResult, assembleRun } from "../evidence/assemble.js";
import { type PromotionReport, promoteRun } from "../evidence/promote.js";
import { createRun } from "../evidence/run.js";
import { type VerificationReport, verifyRun } from "../evidence/verify.js";
import { type RunReportWritten, writeRunReport } from "../report/run/index.js";
import { defineOperation } from "./operation.js";
import { inputPath, outputPath } from "./paths.js";
import type {
  runAssembleInput,
  runNewInput,
  runPromoteInput,
  runReportInput,
  runVerifyInput,
} from "./schemas/run.js";

export type RunNewInput = z.infer<typeof runNewInput.object>;
export type RunAssembleInput = z.infer<typeof runAssembleInput.object>;
export type RunVerifyInput = z.infer<typeof runVerifyInput.object>;
export type RunReportInput = z.infer<typeof runReportInput.object>;
export type RunPromoteInput = z.infer<typeof runPromoteInput.object>;

export interface RunCreated {
  run_dir: string;
  run_id: string;
  created_at: string;
  library_root: string;
  gate: boolean;
}

const schemas = () => import("./schemas/index.js").then((m) => m.INPUT_SCHEMAS);

export const runNewOperation = defineOperation<RunNewInput, RunCreated>({
  name: "run_new",
  title: "Create an evidence run",
  description: "Creates a run folder and records its creation time, library root and gate setting.",
  schema: () => schemas().then((s) => s.run_new),
  output: () => import("./schemas/outputs.js").then((m) => m.runNewOutput),
  async run(input, ctx) {
    const info = createRun(outputPath(ctx, input.run_dir), {
      libraryRoot: input.library_root === undefined ? undefined : inputPath(ctx, input.library_root),
      gate: input.gate === true,
    });
    return {
      run_dir: info.dir,
      run_id: info.runId,
      created_at: info.createdAt,
      library_root: info.libraryRoot,
      gate: info.gate,
    };
  },
  json: (created) => created,
  format: (c) => `${c.run_id} created at ${c.created_at} in ${c.run_dir}\n`,
  exitCode: () => 0,
});

export const runAssembleOperation = defineOperation<
  RunAssembleInput,
  { result: AssemblyResult; path: string }
>({
  name: "run_assemble",
  title: "Assemble an evidence run through the gate",
  description:
    "Checks every record and span of the run and writes outputs/result.json (accepted spans, records, " +
    "diagnostics); the gate blocks when it is enabled and anything is unresolved.",
  schema: () => schemas().then((s) => s.run_assemble),
  output: () => import("./schemas/evidence-outputs.js").then((m) => m.runAssembleOutput),
  run: (input, ctx) =>
    assembleRun(inputPath(ctx, input.run_dir), {
      gate: input.gate ? true : undefined,
      cacheDir: ctx.open.cacheDir,
    }),
  json: ({ result, path }) => ({
    result: path,
    gate: result.gate,
    summary: result.summary,
    diagnostics: { counts: result.diagnostics.counts, unresolved: result.diagnostics.unresolved },
  }),
  format({ result, path }) {
    const s = result.summary;
    const lines = [
      `${path}: ${s.accepted} span(s) accepted, ${s.unresolved} unresolved, over ${s.records} record(s) and ${s.sources} source(s)`,
    ];
    for (const u of result.diagnostics.unresolved) lines.push(`  ${u.code.padEnd(24)} ${u.message}`);
    const g = result.gate;
    lines.push(
      `gate ${g.verdict}${g.enabled ? " (enabled)" : " (reported, not blocking)"}` +
        (g.integrity_failures > 0 ? `; ${g.integrity_failures} integrity failure(s) block promotion` : ""),
    );
    return `${lines.join("\n")}\n`;
  },
  exitCode: ({ result }) => (result.gate.blocking ? 1 : 0),
});

export const runVerifyOperation = defineOperation<
  RunVerifyInput,
  { report: VerificationReport; path: string }
>({
  name: "run_verify",
  title: "Verify an evidence run",
  description:
    "Runs C-SNAPSHOT, C-SPAN, C-FRESH-FETCH and C-ASSEMBLER over the run and writes " +
    "outputs/verification.json.",
  schema: () => schemas().then((s) => s.run_verify),
  output: () => import("./schemas/evidence-outputs.js").then((m) => m.runVerifyOutput),
  run: (input, ctx) => verifyRun(inputPath(ctx, input.run_dir), { cacheDir: ctx.open.cacheDir }),
  json: ({ report, path }) => ({ verification: path, ...report }),
  format({ report, path }) {
    const lines = [`${path}: ${report.verdict}`];
    for (const check of report.checks) {
      const counts = Object.entries(check.counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ");
      lines.push(`  ${check.id.padEnd(14)} ${check.status} (${counts})`);
      for (const f of check.failures) lines.push(`    ${f.code}: ${f.message}`);
    }
    return `${lines.join("\n")}\n`;
  },
  exitCode: ({ report }) => (report.verdict === "pass" ? 0 : 1),
});

export const runReportOperation = defineOperation<RunReportInput, RunReportWritten>({
  name: "run_report",
  title: "Render an evidence run's report",
  description:
    "Renders outputs/report.md and outputs/report.html from result.json and verification.json (after " +
    "run_verify), with crops of user-supplied PDF spans in the HTML.",
  schema: () => schemas().then((s) => s.run_report),
  output: () => import("./schemas/outputs.js").then((m) => m.runReportOutput),
  run: (input, ctx) =>
    writeRunReport(inputPath(ctx, input.run_dir), {
      format: input.format,
      maxCrops: input.max_crops,
      cacheDir: ctx.open.cacheDir,
    }),
  json: (written) => written,
  format(w) {
    const files = [w.report_md, w.report_html].filter((f) => f !== null).join(" and ");
    return `wrote ${files}: ${w.accepted} accepted span(s), ${w.unresolved} unresolved, ${w.crops} crop(s)\n`;
  },
  exitCode: () => 0,
});

export const runPromoteOperation = defineOperation<RunPromoteInput, PromotionReport>({
  name: "run_promote",
  title: "Promote an evidence run to a knowledge folder",
  description:
    "The publisher preflight (re-reads every snapshot, re-slices every excerpt, checks the gate), and " +
    "with `to` the promotion: one concept per accepted claim and a manifest in <to>/<run_id>/, all or " +
    "nothing. Without `to` nothing is written.",
  schema: () => schemas().then((s) => s.run_promote),
  output: () => import("./schemas/evidence-outputs.js").then((m) => m.runPromoteOutput),
  run: (input, ctx) =>
    promoteRun(inputPath(ctx, input.run_dir), {
      to: input.to === undefined ? undefined : outputPath(ctx, input.to),
      cacheDir: ctx.open.cacheDir,
    }),
  json: (report) => report,
  format(report) {
    const lines = [
      report.ok
        ? report.mode === "check"
          ? `preflight passes: ${report.concepts.length} concept(s), ${report.excerpts_checked} excerpt(s) re-sliced from ${report.snapshots_checked} snapshot(s)`
          : `promoted ${report.concepts.length} concept(s) to ${report.written_to}`
        : `promotion refused (${report.failures.length} failure(s)); nothing was written`,
    ];
    for (const f of report.failures) lines.push(`  ${f.code.padEnd(24)} ${f.message}`);
    return `${lines.join("\n")}\n`;
  },
  exitCode: (report) => (report.ok ? 0 : 1),
});
