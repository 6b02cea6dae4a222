import type { Command } from "commander";
import { CiteproofError } from "../../errors.js";
import {
  runAssembleOperation,
  runNewOperation,
  runPromoteOperation,
  runReportOperation,
  runVerifyOperation,
} from "../../operations/run.js";
import { DEFAULT_MAX_CROPS, RUN_REPORT_FORMATS, type RunReportFormat } from "../../report/run/options.js";
import type { CommandIo } from "../cli-io.js";
import { commandContext, nonNegativeInt, runAction, runAndPrint } from "../io.js";

interface RunFlags {
  runDir: string;
  cacheDir?: string;
  json?: boolean;
}

export function register(program: Command, io: CommandIo): void {
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
      runAction(io, flags.json, () =>
        runAndPrint(
          io,
          runNewOperation,
          { run_dir: dir, library_root: flags.libraryRoot, gate: flags.gate === true },
          commandContext(io, {}),
          flags.json,
        ),
      ),
    );

  cacheAndJson(
    run
      .command("assemble")
      .description("check every record and span; write outputs/result.json (accepted[] and diagnostics)")
      .requiredOption("--run-dir <dir>", "the run folder")
      .option("--gate", "let unresolved diagnostics block (exit 1)"),
  ).action((flags: RunFlags & { gate?: boolean }) =>
    runAction(io, flags.json, () =>
      runAndPrint(
        io,
        runAssembleOperation,
        { run_dir: flags.runDir, gate: flags.gate === true },
        commandContext(io, flags),
        flags.json,
      ),
    ),
  );

  cacheAndJson(
    run
      .command("verify")
      .description("run C-SNAPSHOT, C-SPAN, C-FRESH-FETCH and C-ASSEMBLER; write outputs/verification.json")
      .requiredOption("--run-dir <dir>", "the run folder"),
  ).action((flags: RunFlags) =>
    runAction(io, flags.json, () =>
      runAndPrint(io, runVerifyOperation, { run_dir: flags.runDir }, commandContext(io, flags), flags.json),
    ),
  );

  cacheAndJson(
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
      ),
  ).action((flags: RunFlags & { format: string; maxCrops?: string }) =>
    runAction(io, flags.json, () => {
      if (!(RUN_REPORT_FORMATS as readonly string[]).includes(flags.format)) {
        throw new CiteproofError(
          "USAGE",
          `--format must be one of ${RUN_REPORT_FORMATS.join(", ")} (got '${flags.format}')`,
        );
      }
      const input = {
        run_dir: flags.runDir,
        format: flags.format as RunReportFormat,
        max_crops: nonNegativeInt(flags.maxCrops, "--max-crops"),
      };
      return runAndPrint(io, runReportOperation, input, commandContext(io, flags), flags.json);
    }),
  );

  cacheAndJson(
    run
      .command("promote")
      .description(
        "publisher preflight (--check, writes nothing) or promotion to a knowledge folder (--to), all or nothing",
      )
      .requiredOption("--run-dir <dir>", "the run folder")
      .option("--check", "run the preflight only")
      .option("--to <knowledge-dir>", "write the concept set into <knowledge-dir>/<run_id>/"),
  ).action((flags: RunFlags & { check?: boolean; to?: string }) =>
    runAction(io, flags.json, () => {
      // The operation runs the preflight alone when no folder is named; the command asks for one form.
      if (flags.check === true && flags.to !== undefined) {
        throw new CiteproofError("USAGE", "give either --check or --to <knowledge-dir>, not both");
      }
      if (flags.check !== true && flags.to === undefined) {
        throw new CiteproofError("USAGE", "give --check (preflight only) or --to <knowledge-dir>");
      }
      const input = { run_dir: flags.runDir, to: flags.to };
      return runAndPrint(io, runPromoteOperation, input, commandContext(io, flags), flags.json);
    }),
  );
}

/** The extraction cache and --json, after a command's own options. */
function cacheAndJson(command: Command): Command {
  return command
    .option(
      "--cache-dir <dir>",
      "extraction cache, for page geometry of PDF snapshots (default: $CITEPROOF_CACHE_DIR, else $XDG_CACHE_HOME/citeproof, else ~/.cache/citeproof)",
    )
    .option("--json", "print JSON");
}
