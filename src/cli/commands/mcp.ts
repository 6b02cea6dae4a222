import type { Command } from "commander";
import { serveStdio } from "../../mcp/server.js";
import { resolveRoot } from "../../source/allowed-root.js";
import { addSharedDocumentOptions, EXIT_CLEAN, runAction, sharedOpenOptions } from "../io.js";

interface McpFlags {
  allowRoot: string[];
  cacheDir?: string;
  cache?: boolean;
  timeoutMs?: string;
  maxBytes?: string;
}

export function register(program: Command): void {
  const command = program
    .command("mcp")
    .description("serve the checks as tools of an MCP server over stdio")
    .option(
      "--allow-root <dir>",
      "a directory whose files the tools may read (repeatable; default: the working directory)",
      (dir: string, dirs: string[]) => [...dirs, dir],
      [] as string[],
    );
  addSharedDocumentOptions(command, "tool call").action((flags: McpFlags) =>
    runAction(false, async () => {
      const roots = (flags.allowRoot.length > 0 ? flags.allowRoot : [process.cwd()]).map(resolveRoot);
      await serveStdio(
        { cwd: process.cwd(), roots, open: sharedOpenOptions(flags) },
        program.version() ?? "0.0.0",
      );
      return EXIT_CLEAN;
    }),
  );
}
