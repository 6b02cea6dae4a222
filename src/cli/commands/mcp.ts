import type { Command } from "commander";
import { CiteproofError } from "../../errors.js";
import { serveHttp } from "../../mcp/http.js";
import { serveStdio } from "../../mcp/server.js";
import { resolveRoot } from "../../source/allowed-root.js";
import type { CommandIo } from "../cli-io.js";
import {
  addSharedDocumentOptions,
  type DocumentFlags,
  EXIT_CLEAN,
  positiveInt,
  readTextInput,
  runAction,
  sharedOpenOptions,
} from "../io.js";

interface McpFlags extends DocumentFlags {
  allowRoot: string[];
  http?: string;
  host?: string;
  tokenFile?: string;
  maxConcurrent: string;
  queueTimeoutMs: string;
  maxBodyBytes: string;
  bodyTimeoutMs: string;
  callTimeoutMs: string;
  idleTimeoutMs: string;
  allowPrivateUrls?: boolean;
  allowOrigin: string[];
}

export function register(program: Command, io: CommandIo): void {
  const command = program
    .command("mcp")
    .description("serve the checks as tools of an MCP server over stdio, or over HTTP with --http")
    .option(
      "--allow-root <dir>",
      "a directory whose files the tools may read (repeatable; default: the working directory)",
      (dir: string, dirs: string[]) => [...dirs, dir],
      [] as string[],
    )
    .option(
      "--allow-private-urls",
      "let cite_check fetch URLs on loopback, private and link-local addresses (refused by default)",
    )
    .option(
      "--http <[host:]port>",
      "serve MCP's Streamable HTTP transport at /mcp on this port (0: any free port)",
    )
    .option("--host <host>", "the address to listen on with --http (default: 127.0.0.1, loopback only)")
    .option(
      "--allow-origin <origin>",
      "with --http: a web origin (https://app.example) whose pages may call, besides loopback ones (repeatable)",
      (origin: string, origins: string[]) => [...origins, origin],
      [] as string[],
    )
    .option("--token-file <file>", "with --http: a file holding the bearer token every request must carry")
    .option("--max-concurrent <n>", "with --http: requests handled at once", "4")
    .option(
      "--queue-timeout-ms <ms>",
      "with --http: how long a request waits for a free slot before 503",
      "10000",
    )
    .option("--max-body-bytes <n>", "with --http: largest request body", String(16 * 1024 * 1024))
    .option("--body-timeout-ms <ms>", "with --http: deadline for receiving a request", "10000")
    .option("--call-timeout-ms <ms>", "with --http: deadline for one tool call", "120000")
    .option("--idle-timeout-ms <ms>", "with --http: an idle connection is closed after this", "60000");
  addSharedDocumentOptions(command, "tool call").action((flags: McpFlags) =>
    runAction(io, false, async () => {
      const roots = (flags.allowRoot.length > 0 ? flags.allowRoot : [io.cwd]).map(resolveRoot);
      const env = {
        cwd: io.cwd,
        roots,
        open: sharedOpenOptions(flags),
        allowPrivateUrls: flags.allowPrivateUrls === true,
      };
      const version = program.version() ?? "0.0.0";
      if (flags.http === undefined) {
        if (flags.host !== undefined || flags.tokenFile !== undefined || flags.allowOrigin.length > 0)
          throw new CiteproofError("USAGE", "--host, --token-file and --allow-origin go with --http");
        await serveStdio(env, version);
        return EXIT_CLEAN;
      }
      await serveUntilSignal(flags, env, version);
      return EXIT_CLEAN;
    }),
  );
}

async function serveUntilSignal(
  flags: McpFlags,
  env: Parameters<typeof serveHttp>[0]["env"],
  version: string,
): Promise<void> {
  const { host, port } = listenAddress(flags.http as string, flags.host);
  if (flags.tokenFile === undefined)
    throw new CiteproofError("USAGE", "--http needs --token-file: every request must carry a bearer token");
  const token = readTextInput(flags.tokenFile, "token file").trim();
  if (token.length < 16 || /\s/.test(token))
    throw new CiteproofError(
      "USAGE",
      `the token in ${flags.tokenFile} must be one word of at least 16 characters`,
    );
  const int = (value: string, flag: string) => positiveInt(value, flag) as number;
  const callTimeoutMs = int(flags.callTimeoutMs, "--call-timeout-ms");
  const open = { ...env.open, timeoutMs: Math.min(env.open.timeoutMs ?? callTimeoutMs, callTimeoutMs) };
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const server = await serveHttp({
    env: { ...env, open },
    version,
    token,
    host,
    port,
    log,
    allowedOrigins: flags.allowOrigin,
    limits: {
      maxConcurrent: int(flags.maxConcurrent, "--max-concurrent"),
      queueTimeoutMs: int(flags.queueTimeoutMs, "--queue-timeout-ms"),
      maxBodyBytes: int(flags.maxBodyBytes, "--max-body-bytes"),
      bodyTimeoutMs: int(flags.bodyTimeoutMs, "--body-timeout-ms"),
      callTimeoutMs,
      idleTimeoutMs: int(flags.idleTimeoutMs, "--idle-timeout-ms"),
    },
  });
  log(`citeproof mcp: serving ${server.url}`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      log(`citeproof mcp: ${signal}: finishing the calls in flight`);
      void server.close().then(resolve);
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
  });
  log("citeproof mcp: stopped");
}

/** `[host:]port`; `--host` wins over a host written in `--http`. */
function listenAddress(http: string, hostFlag: string | undefined): { host: string; port: number } {
  const m = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(http);
  const port = m ? Number(m[2]) : Number.NaN;
  if (!m || port > 65535)
    throw new CiteproofError("USAGE", `--http must be [host:]port (got ${JSON.stringify(http)})`);
  const written = m[1]?.replace(/^\[|\]$/g, "");
  return { host: hostFlag ?? written ?? "127.0.0.1", port };
}
