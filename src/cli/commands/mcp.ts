import type { Command } from "commander";
import { serveStdio } from "../../mcp/server.js";
import { resolveRoot } from "../../source/allowed-root.js";
import { EXIT_CLEAN, positiveInt, runAction } from "../io.js";

interface McpFlags {
  allowRoot: string[];
  cacheDir?: string;
  cache?: boolean;
  timeoutMs?: string;
  maxBytes?: string;
}

export function register(program: Command): void {
  program
    .command("mcp")
    .description("serve the checks as tools of an MCP server over stdio")
    .option(
      "--allow-root <dir>",
      "a directory whose files the tools may read (repeatable; default: the working directory)",
      (dir: string, dirs: string[]) => [...dirs, dir],
      [] as string[],
    )
    .option(
      "--cache-dir <dir>",
      "extraction cache directory (default: $CITEPROOF_CACHE_DIR or ~/.cache/citeproof)",
    )
    .option("--no-cache", "neither read nor write the extraction cache")
    .option("--timeout-ms <ms>", "deadline for extraction in milliseconds, per tool call", "60000")
    .option("--max-bytes <bytes>", "largest PDF accepted, in bytes", String(256 * 1024 * 1024))
    .action((flags: McpFlags) =>
      runAction(false, async () => {
        const roots = (flags.allowRoot.length > 0 ? flags.allowRoot : [process.cwd()]).map(resolveRoot);
        const open = {
          cacheDir: flags.cacheDir,
          noCache: flags.cache === false,
          timeoutMs: positiveInt(flags.timeoutMs, "--timeout-ms"),
          maxBytes: positiveInt(flags.maxBytes, "--max-bytes"),
        };
        await serveStdio({ cwd: process.cwd(), roots, open }, program.version() ?? "0.0.0");
        return EXIT_CLEAN;
      }),
    );
}
