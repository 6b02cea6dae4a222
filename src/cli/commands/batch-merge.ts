import type { Command } from "commander";
import { mergeResults } from "../../batch/merge.js";
import { formatSummary } from "../../batch/summary.js";
import type { CommandIo } from "../cli-io.js";
import { printJson, runAction } from "../io.js";

interface MergeFlags {
  out: string;
  json?: boolean;
}

export function register(program: Command, io: CommandIo): void {
  program
    .command("batch-merge")
    .description("merge the results files of a batch's shards into one, checking every job is there once")
    .argument("<jobs>", "the jobs file the shards ran")
    .argument("<results...>", "the shards' results files")
    .requiredOption("--out <file>", "the merged results file (replaced whole)")
    .option("--json", "print the summary as JSON")
    .action((jobsPath: string, inputs: string[], flags: MergeFlags) =>
      runAction(io, flags.json, () => {
        const summary = mergeResults({ jobsPath, inputs, outPath: flags.out });
        if (flags.json) printJson(summary, io.stdout);
        else io.stdout.write(formatSummary(summary));
        return summary.exit;
      }),
    );
}
