/**
 * The MCP server: the agent operations as tools over the Model Context Protocol. A tool's problem
 * comes back as a tool result with isError and the coded error document; nothing a call does stops
 * the server.
 */
import { Transform } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { errorDocument } from "../error-document.js";
import { argumentName, CiteproofError, type Naming } from "../errors.js";
import { type AgentOutput, agentOperation, callOperation } from "../operations/agent-call.js";
import { AGENT_OPERATIONS } from "../operations/agent-operations.js";
import type { OperationContext } from "../operations/operation.js";
import { toolInputSchema, toolOutputSchema } from "../operations/tool-schema.js";
import { boundedLines, type DroppedLine, MAX_MESSAGE_BYTES } from "./bounded-lines.js";
import { refusalMessage, screenMessage } from "./messages.js";

export const SERVER_NAME = "citeproof";

/** Where the server's tools run: its working directory, allowed roots and document options. */
export interface ServerEnv {
  cwd: string;
  roots: readonly string[];
  open: OperationContext["open"];
  /** URLs on loopback, private and link-local addresses may be fetched (`--allow-private-urls`). */
  allowPrivateUrls?: boolean;
}

/** Calls still running: stdin may close before they answer, and their answers must still go out. */
export interface InFlight {
  calls: Set<Promise<unknown>>;
  /** The calls' work itself, which goes on after a call has answered CALL_TIMEOUT until it stops. */
  running?: Set<Promise<unknown>>;
}

/** Calls and their work, as the HTTP server tracks them to hold a slot until the work has stopped. */
export type Work = Required<InFlight>;

/** How a tool's messages name things: a setting as the server's user can change it, a field as an argument. */
export const MCP_NAMING: Naming = {
  option: (option) =>
    option === "allow_root" ||
    option === "max_bytes" ||
    option === "call_timeout_ms" ||
    option === "allow_private_urls"
      ? `the server's --${option.replace(/_/g, "-")}`
      : option,
  field: argumentName,
};

/**
 * `callTimeoutMs`: a deadline for each tool call (the HTTP server's `--call-timeout-ms`).
 * `jsonSchemaValidator`: one made once for the servers of many requests (the SDK's default compiles a
 * JSON Schema engine and its formats for each server object, a millisecond a request over HTTP).
 */
export function createMcpServer(
  env: ServerEnv,
  version: string,
  inFlight?: InFlight,
  callTimeoutMs?: number,
  jsonSchemaValidator?: jsonSchemaValidator,
): Server {
  const server = new Server(
    { name: SERVER_NAME, version },
    {
      ...(jsonSchemaValidator ? { jsonSchemaValidator } : {}),
      capabilities: { tools: {} },
      instructions:
        "citeproof checks mechanically whether cited words, pages, equation labels and figure labels " +
        "are really in a PDF. Supply pointers and the words you claim; the tool reads the document. " +
        `Paths are read only inside the allowed roots: ${env.roots.join(", ")}.`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: await Promise.all(
      AGENT_OPERATIONS.map(async (op) => ({
        name: op.name,
        title: op.title,
        description: op.description,
        inputSchema: toolInputSchema(await op.schema()),
        ...(op.output ? { outputSchema: toolOutputSchema(await op.output()) } : {}),
        annotations: { readOnlyHint: true, openWorldHint: op.openWorld === true },
      })),
    ),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const call = callTool(request.params.name, request.params.arguments, env, callTimeoutMs, (work) => {
      inFlight?.running?.add(work);
      void work.then(
        () => inFlight?.running?.delete(work),
        () => inFlight?.running?.delete(work),
      );
    });
    inFlight?.calls.add(call);
    try {
      return await call;
    } finally {
      inFlight?.calls.delete(call);
    }
  });
  return server;
}

/** Runs one tool call; every failure becomes an error result, never an exception. */
export async function callTool(
  name: string,
  args: unknown,
  env: ServerEnv,
  deadlineMs?: number,
  onWork?: (work: Promise<unknown>) => void,
): Promise<CallToolResult> {
  try {
    const call = callOperation(agentOperation(name), args, {
      cwd: env.cwd,
      access: env.roots,
      open: env.open,
      privateUrls: env.allowPrivateUrls === true ? "allow" : "refuse",
    });
    onWork?.(call);
    return toResult(deadlineMs === undefined ? await call : await withDeadline(call, deadlineMs));
  } catch (error) {
    const document = { error: errorDocument(error, MCP_NAMING) };
    return { isError: true, content: [{ type: "text", text: JSON.stringify(document) }] };
  }
}

/** The call's answer, or CALL_TIMEOUT once the deadline passes (the work's own deadline then stops it). */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new CiteproofError("CALL_TIMEOUT", `the tool call did not finish within ${ms} ms`, {
            option: "call_timeout_ms",
            limit: ms,
          }),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
    work.catch(() => {});
  }
}

/**
 * A call's answer: the document as structured content (checked against the tool's output schema by
 * the client), the same compact JSON as text for a client that reads text only, and any image.
 */
function toResult(output: AgentOutput): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: JSON.stringify(output.json) }];
  if (output.image) {
    content.push({
      type: "image",
      mimeType: "image/png",
      data: Buffer.from(output.image.png).toString("base64"),
    });
  }
  return { content, structuredContent: output.json as Record<string, unknown> };
}

/**
 * Serves on stdin/stdout until the client closes stdin and the calls it made have answered. A message
 * over MAX_MESSAGE_BYTES is dropped unread and answered with a JSON-RPC error; the server goes on.
 */
export async function serveStdio(env: ServerEnv, version: string): Promise<void> {
  const inFlight: InFlight = { calls: new Set() };
  const server = createMcpServer(env, version, inFlight);
  const input = process.stdin.pipe(boundedLines(MAX_MESSAGE_BYTES, refuseOversized)).pipe(screenedLines());
  // Every line reaching the SDK is within the bound already; its own buffer limit must not end the server.
  const transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: MAX_MESSAGE_BYTES + 2 });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    input.once("end", async () => {
      // A call's handler resolves before the SDK writes its answer: drain, then let that write go out.
      while (inFlight.calls.size > 0) await Promise.allSettled([...inFlight.calls]);
      await new Promise((r) => setImmediate(r));
      await server.close();
    });
  });
  await server.connect(transport);
  process.stderr.write(
    `citeproof mcp: serving MCP over stdio (one JSON-RPC message a line); files are read inside ${env.roots.join(", ")}\n`,
  );
  await closed;
}

/**
 * Each line screened before the SDK reads it (see messages.ts): a line refused is answered with its
 * JSON-RPC error and noted on stderr; a blank line is passed over.
 */
function screenedLines(): Transform {
  return new Transform({
    transform(line: Buffer, _encoding, done) {
      const text = line
        .toString("utf8")
        .replace(/\r?\n$/, "")
        .replace(/\r$/, "");
      if (text.trim().length === 0) return done();
      const screened = screenMessage(text);
      if ("refused" in screened) {
        process.stderr.write(`citeproof mcp: ${screened.refused.message}\n`);
        process.stdout.write(`${refusalMessage(screened.refused)}\n`);
        return done();
      }
      done(null, line);
    },
  });
}

/** Answers a dropped message (Invalid Request, with its id when the line's end showed it). */
function refuseOversized(line: DroppedLine): void {
  const message = `a message of ${line.bytes} bytes is over the limit of ${MAX_MESSAGE_BYTES} bytes; it was not read and nothing was done`;
  process.stderr.write(`citeproof mcp: ${message}\n`);
  process.stdout.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: line.id, error: { code: -32600, message } })}\n`,
  );
}
