// Speaks to `citeproof mcp` over stdio the simplest way: every line written at once, stdin closed,
// the replies read back by id once the server has exited.
import { spawnSync } from "node:child_process";
import { repoRoot } from "./fixture-files.js";
import { cliPath } from "./run-cli.js";

export interface McpRun {
  status: number | null;
  /** The replies by JSON-RPC id. */
  replies: Map<number, { result?: { isError?: boolean; content: { text: string }[] } }>;
}

/** The messages that open an MCP session over stdio: initialize, then the initialized notification. */
export const MCP_HANDSHAKE = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
];

/** Initializes, makes each tool call (ids 2, 3, ...), closes stdin and waits for the server to exit. */
export function mcpCalls(
  calls: { name: string; arguments: Record<string, unknown> }[],
  options: { args?: string[]; env?: Record<string, string> } = {},
): McpRun {
  const lines = [
    ...MCP_HANDSHAKE,
    ...calls.map((params, i) => ({ jsonrpc: "2.0", id: i + 2, method: "tools/call", params })),
  ];
  const run = spawnSync(process.execPath, [cliPath, "mcp", ...(options.args ?? [])], {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    input: `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`,
    encoding: "utf8",
    timeout: 30_000,
  });
  const replies = new Map(
    run.stdout
      .trim()
      .split("\n")
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l))
      .map((r) => [r.id, r]),
  );
  return { status: run.status, replies };
}
