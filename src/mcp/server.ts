/**
 * The MCP server: the agent tools over the Model Context Protocol. A tool's problem comes back as
 * a tool result with isError and the coded error document; nothing a call does stops the server.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { asCiteproofError, CiteproofError } from "../errors.js";
import { asArgs } from "../tools/args.js";
import { AGENT_TOOLS, findTool, type ToolEnv, type ToolOutput } from "../tools/index.js";

export const SERVER_NAME = "citeproof";

/** Calls still running: stdin may close before they answer, and their answers must still go out. */
export interface InFlight {
  calls: Set<Promise<unknown>>;
}

export function createMcpServer(env: ToolEnv, version: string, inFlight?: InFlight): Server {
  const server = new Server(
    { name: SERVER_NAME, version },
    {
      capabilities: { tools: {} },
      instructions:
        "citeproof checks mechanically whether cited words, pages, equation labels and figure labels " +
        "are really in a PDF. Supply pointers and the words you claim; the tool reads the document. " +
        `Paths are read only inside the allowed roots: ${env.roots.join(", ")}.`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: AGENT_TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      annotations: { readOnlyHint: true, openWorldHint: tool.openWorld === true },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const call = callTool(request.params.name, request.params.arguments, env);
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
export async function callTool(name: string, rawArgs: unknown, env: ToolEnv): Promise<CallToolResult> {
  try {
    const tool = findTool(name);
    if (!tool) {
      throw new CiteproofError(
        "USAGE",
        `unknown tool "${name}" (available: ${AGENT_TOOLS.map((t) => t.name).join(", ")})`,
      );
    }
    return toResult(await tool.run(asArgs(rawArgs), env));
  } catch (error) {
    const coded = asCiteproofError(error);
    return {
      isError: true,
      content: [{ type: "text", text: JSON.stringify({ error: coded.toJSON() }, null, 2) }],
    };
  }
}

function toResult(output: ToolOutput): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: JSON.stringify(output.json, null, 2) }];
  if (output.image) {
    content.push({
      type: "image",
      mimeType: "image/png",
      data: Buffer.from(output.image.png).toString("base64"),
    });
  }
  return { content };
}

/** Serves on stdin/stdout until the client closes stdin and the calls it made have answered. */
export async function serveStdio(env: ToolEnv, version: string): Promise<void> {
  const inFlight: InFlight = { calls: new Set() };
  const server = createMcpServer(env, version, inFlight);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once("end", async () => {
      // A call's handler resolves before the SDK writes its answer: drain, then let that write go out.
      while (inFlight.calls.size > 0) await Promise.allSettled([...inFlight.calls]);
      await new Promise((r) => setImmediate(r));
      await server.close();
    });
  });
  await server.connect(transport);
  await closed;
}
