/**
 * A batch's progress on stderr: a bar (jobs done, failed, rate, ETA) on a terminal, one plain line
 * per job otherwise, nothing when quiet.
 */
import cliProgress from "cli-progress";
import type { BatchProgress } from "../batch/run-batch.js";
import type { ResultLine } from "../batch/run-job.js";

export function batchProgress(
  quiet: boolean,
  stream: NodeJS.WriteStream = process.stderr,
): BatchProgress | undefined {
  if (quiet) return undefined;
  return stream.isTTY ? barProgress(stream) : plainProgress(stream);
}

function barProgress(stream: NodeJS.WriteStream): BatchProgress {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: "batch {bar} {value}/{total} jobs | {failed} failed | {rate}/s | ETA {eta_formatted}",
      etaBuffer: 20,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let failed = 0;
  let started = 0;
  let ran = 0;
  return {
    start(total, resumed) {
      started = Date.now();
      bar.start(total, resumed, { failed, rate: "0.0" });
    },
    done(line) {
      if (line.batch.exit === 2) failed++;
      ran++;
      bar.increment({ failed, rate: ((ran * 1000) / Math.max(1, Date.now() - started)).toFixed(1) });
    },
    end: () => bar.stop(),
  };
}

function plainProgress(stream: NodeJS.WriteStream): BatchProgress {
  let total = 0;
  let count = 0;
  let failed = 0;
  return {
    start(all, resumed) {
      total = all;
      count = resumed;
      stream.write(`batch: ${total} job(s), ${resumed} already done\n`);
    },
    done(line: ResultLine) {
      count++;
      if (line.batch.exit === 2) failed++;
      const what =
        line.batch.exit === 2 ? `error ${(line.error as { code: string }).code}` : `exit ${line.batch.exit}`;
      stream.write(
        `batch: ${count}/${total} done, ${failed} failed: ${line.id ?? `line ${line.batch.line}`} ${what} (${line.batch.ms} ms)\n`,
      );
    },
    end() {},
  };
}
