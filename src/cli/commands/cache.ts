import type { Command } from "commander";
import { defaultCacheDir } from "../../document/cache.js";
import { cacheCapBytes, pruneCache } from "../../document/cache-prune.js";
import type { CommandIo } from "../cli-io.js";
import { positiveInt, printJson, runAction } from "../io.js";

interface PruneFlags {
  cacheDir?: string;
  maxMb?: string;
  json?: boolean;
}

const MIB = 1024 * 1024;

export function register(program: Command, io: CommandIo): void {
  const cache = program.command("cache").description("the extraction cache: its bound");
  cache
    .command("prune")
    .description(
      "remove the least recently used documents' entries until the cache is under its cap (CITEPROOF_CACHE_MAX_MB, default 2048)",
    )
    .option("--cache-dir <dir>", "the cache (default $CITEPROOF_CACHE_DIR, else $XDG_CACHE_HOME/citeproof)")
    .option("--max-mb <n>", "the cap in MiB for this prune (default CITEPROOF_CACHE_MAX_MB, else 2048)")
    .option("--json", "print the report as JSON")
    .action((flags: PruneFlags) =>
      runAction(io, flags.json, () => {
        const maxMb = positiveInt(flags.maxMb, "--max-mb");
        const cap = maxMb === undefined ? cacheCapBytes() : maxMb * MIB;
        const root = flags.cacheDir ?? defaultCacheDir();
        const report = pruneCache(root, cap);
        if (flags.json) printJson({ cache_dir: root, ...report }, io.stdout);
        else
          io.stdout.write(
            `${root}: ${mib(report.before)} before, ${mib(report.after)} after (cap ${mib(report.cap)}); ${report.removed} entr${report.removed === 1 ? "y" : "ies"} removed, ${report.entries} kept\n`,
          );
        return 0;
      }),
    );
}

function mib(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}
