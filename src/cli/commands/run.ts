import type { Command } from "commander";
import { CiteproofError } from "../../errors.js";
import { assembleRun } from "../../evidence/assemble.js";
import { promoteRun } from "../../evidence/promote.js";
import { createRun } from "../../evidence/run.js";
import { verifyRun } from "../../evidence/verify.js";
import {
  DEFAULT_MAX_CROPS,
  RUN_REPORT_FORMATS,
  type RunReportFormat,
  writeRunReport,
} from "../../report/run/index.js";
import { EXIT_CLEAN, EXIT_FAILS, nonNegativeInt, printJson, runAction } from "../io.js";

export function register(program: Command): void {
  const run = program
    .command("run")
    .description("evidence runs: snapshots, event log, spans, the assembler gate, verification, promotion");

  run
    .command("new")
    .description("create a run folder and record its creation time")
    .argument("<dir>", "the new run folder (must not exist, or be empty)")
    .option("--library-root <dir>", "folder that user-supplied PDFs live in (default: the current folder)")
    .option("--gate", "make the assembler gate block by default in this run")
    .option("--json", "print JSON")
    .action((dir: string, flags: { libraryRoot?: string; gate?: boolean; json?: boolean }) =>
      runAction(flags.json, () => {
        const info = createRun(dir, { libraryRoot: flags.libraryRoot, gate: flags.gate === true });
        const out = {
          run_dir: info.dir,
          run_id: info.runId,
          created_at: info.createdAt,
          library_root: info.libraryRoot,
          gate: info.gate,
        };
        if (flags.json) printJson(out);
        else process.stdout.write(`${out.run_id} created at ${out.created_at} in ${out.run_dir}\n`);
        return EXIT_CLEAN;
      }),
    );

  run
    .command("assemble")
    .description("check every record and span; write outputs/result.json (accepted[] and diagnostics)")
    .requiredOption("--run-dir <dir>", "the run folder")
    .option("--gate", "let unresolved diagnostics block (exit 1)")
    .option("--cache-dir <dir>", "extraction cache, for page geometry of PDF snapshots")
    .option("--json", "print JSON")
    .action((flags: { runDir: string; gate?: boolean; cacheDir?: string; json?: boolean }) =>
      runAction(flags.json, async () => {
        const { result, path } = await assembleRun(flags.runDir, {
          gate: flags.gate ? true : undefined,
          cacheDir: flags.cacheDir,
        });
        if (flags.json) {
          printJson({
            result: path,
            gate: result.gate,
            summary: result.summary,
            diagnostics: { counts: result.diagnostics.counts, unresolved: result.diagnostics.unresolved },
          });
        } else {
          const s = result.summary;
          const lines = [
            `${path}: ${s.accepted} span(s) accepted, ${s.unresolved} unresolved, over ${s.records} record(s) and ${s.sources} source(s)`,
          ];
          for (const u of result.diagnostics.unresolved) lines.push(`  ${u.code.padEnd(24)} ${u.message}`);
          const g = result.gate;
          lines.push(
            `gate ${g.verdict}${g.enabled ? " (enabled)" : " (reported, not blocking)"}` +
              (g.integrity_failures > 0
                ? `; ${g.integrity_failures} integrity failure(s) block promotion`
                : ""),
          );
          process.stdout.write(`${lines.join("\n")}\n`);
        }
        return result.gate.blocking ? EXIT_FAILS : EXIT_CLEAN;
      }),
    );

  run
    .command("verify")
    .description("run C-SNAPSHOT, C-SPAN, C-FRESH-FETCH and C-ASSEMBLER; write outputs/verification.json")
    .requiredOption("--run-dir <dir>", "the run folder")
    .option("--cache-dir <dir>", "extraction cache, for page geometry of PDF snapshots")
    .option("--json", "print JSON")
    .action((flags: { runDir: string; cacheDir?: string; json?: boolean }) =>
      runAction(flags.json, async () => {
        const { report, path } = await verifyRun(flags.runDir, { cacheDir: flags.cacheDir });
        if (flags.json) printJson({ verification: path, ...report });
        else {
          const lines = [`${path}: ${report.verdict}`];
          for (const check of report.checks) {
            const counts = Object.entries(check.counts)
              .map(([k, v]) => `${k} ${v}`)
              .join(", ");
            lines.push(`  ${check.id.padEnd(14)} ${check.status} (${counts})`);
            for (const f of check.failures) lines.push(`    ${f.code}: ${f.message}`);
          }
          process.stdout.write(`${lines.join("\n")}\n`);
        }
        return report.verdict === "pass" ? EXIT_CLEAN : EXIT_FAILS;
      }),
    );

  run
    .command("report")
    .description(
      "render outputs/report.md and outputs/report.html from result.json and verification.json (after 'run verify')",
    )
    .requiredOption("--run-dir <dir>", "the run folder")
    .option("--format <format>", "md, html or both", "both")
    .option(
      "--max-crops <n>",
      `most crops drawn in the HTML report (default ${DEFAULT_MAX_CROPS}; 0 for none)`,
    )
    .option("--cache-dir <dir>", "extraction cache, for page geometry of PDF snapshots")
    .option("--json", "print JSON")
    .action(
      (flags: { runDir: string; format: string; maxCrops?: string; cacheDir?: string; json?: boolean }) =>
        runAction(flags.json, async () => {
          if (!(RUN_REPORT_FORMATS as readonly string[]).includes(flags.format)) {
            throw new CiteproofError(
              "USAGE",
              `--format must be one of ${RUN_REPORT_FORMATS.join(", ")} (got '${flags.format}')`,
            );
          }
          const written = await writeRunReport(flags.runDir, {
            format: flags.format as RunReportFormat,
            maxCrops: nonNegativeInt(flags.maxCrops, "--max-crops"),
            cacheDir: flags.cacheDir,
          });
          if (flags.json) printJson(written);
          else {
            const files = [written.report_md, written.report_html].filter((f) => f !== null).join(" and ");
            process.stdout.write(
              `wrote ${files}: ${written.accepted} accepted span(s), ${written.unresolved} unresolved, ${written.crops} crop(s)\n`,
            );
          }
          return EXIT_CLEAN;
        }),
    );

  run
    .command("promote")
    .description(
      "publisher preflight (--check, writes nothing) or promotion to a knowledge folder (--to), all or nothing",
    )
    .requiredOption("--run-dir <dir>", "the run folder")
    .option("--check", "run the preflight only")
    .option("--to <knowledge-dir>", "write the concept set into <knowledge-dir>/<run_id>/")
    .option("--cache-dir <dir>", "extraction cache, for page geometry of PDF snapshots")
    .option("--json", "print JSON")
    .action((flags: { runDir: string; check?: boolean; to?: string; cacheDir?: string; json?: boolean }) =>
      runAction(flags.json, async () => {
        if (flags.check === true && flags.to !== undefined) {
          throw new CiteproofError("USAGE", "give either --check or --to <knowledge-dir>, not both");
        }
        if (flags.check !== true && flags.to === undefined) {
          throw new CiteproofError("USAGE", "give --check (preflight only) or --to <knowledge-dir>");
        }
        const report = await promoteRun(flags.runDir, { to: flags.to, cacheDir: flags.cacheDir });
        if (flags.json) printJson(report);
        else {
          const lines = [
            report.ok
              ? report.mode === "check"
                ? `preflight passes: ${report.concepts.length} concept(s), ${report.excerpts_checked} excerpt(s) re-sliced from ${report.snapshots_checked} snapshot(s)`
                : `promoted ${report.concepts.length} concept(s) to ${report.written_to}`
              : `promotion refused (${report.failures.length} failure(s)); nothing was written`,
          ];
          for (const f of report.failures) lines.push(`  ${f.code.padEnd(24)} ${f.message}`);
          process.stdout.write(`${lines.join("\n")}\n`);
        }
        return report.ok ? EXIT_CLEAN : EXIT_FAILS;
      }),
    );
}
