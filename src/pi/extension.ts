/**
 * citeproof as an extension of the pi coding agent: the agent tools (verify, cite_check, and the
 * others built) as LLM-callable tools named citeproof_<tool>, and a /citeproof command for a
 * person. Install: see the README section "pi extension".
 */
import { delimiter, resolve } from "node:path";
import { asCiteproofError, CiteproofError } from "../errors.js";
import { asArgs } from "../tools/args.js";
import { AGENT_TOOLS, type AgentTool, type ToolEnv, type ToolOutput } from "../tools/index.js";
import type { ExtensionAPI, PiContent, PiContext, PiToolResult } from "./api.js";
import { runCommand } from "./command.js";

/** pi's own limit on what a tool hands the model; the full document stays in `details`. */
export const MAX_TOOL_TEXT = 50_000;
export const ROOTS_ENV = "CITEPROOF_ALLOW_ROOTS";

export default function citeproofExtension(pi: ExtensionAPI): void {
  for (const tool of AGENT_TOOLS) {
    pi.registerTool({
      name: `citeproof_${tool.name}`,
      label: `citeproof ${tool.name.replace(/_/g, "-")}`,
      description: tool.description,
      parameters: tool.inputSchema,
      execute: (_toolCallId, params, signal, _onUpdate, ctx) => execute(tool, params, signal, ctx),
    });
  }
  pi.registerCommand("citeproof", {
    description: "check citations against a PDF: /citeproof verify|check-text|report|help ...",
    handler: async (args, ctx) => {
      const env = envFor(ctx);
      try {
        const { level, text } = await runCommand(args, env);
        ctx.ui.notify(text, level);
      } catch (error) {
        const coded = asCiteproofError(error);
        ctx.ui.notify(`citeproof: error [${coded.code}]: ${coded.message}`, "error");
      }
    },
  });
}

async function execute(
  tool: AgentTool,
  params: Record<string, unknown>,
  signal: AbortSignal | undefined,
  ctx: PiContext | undefined,
): Promise<PiToolResult> {
  try {
    if (signal?.aborted) throw new CiteproofError("USAGE", "the tool call was cancelled");
    const output = await tool.run(stripAt(asArgs(params)), envFor(ctx));
    return toPiResult(output);
  } catch (error) {
    // pi marks a tool call as failed when execute throws; the code leads the message.
    const coded = asCiteproofError(error);
    throw new Error(`citeproof error [${coded.code}]: ${coded.message}`);
  }
}

/** Some models write paths as @file; the agent's own tools accept that, so these do too. */
function stripAt(args: Record<string, unknown>): Record<string, unknown> {
  const out = { ...args };
  if (typeof out.pdf === "string") out.pdf = out.pdf.replace(/^@/, "");
  if (typeof out.draft === "string") out.draft = out.draft.replace(/^@/, "");
  return out;
}

export function envFor(ctx: PiContext | undefined): ToolEnv {
  const cwd = ctx?.cwd ?? process.cwd();
  const configured = (process.env[ROOTS_ENV] ?? "").split(delimiter).filter((p) => p.length > 0);
  return { cwd, roots: configured.length > 0 ? configured.map((p) => resolve(cwd, p)) : [cwd], open: {} };
}

export function toPiResult(output: ToolOutput): PiToolResult {
  let text = JSON.stringify(output.json, null, 2);
  if (text.length > MAX_TOOL_TEXT) {
    text = `${text.slice(0, MAX_TOOL_TEXT)}\n[output truncated at ${MAX_TOOL_TEXT} of ${text.length} characters; ask for fewer records at a time]`;
  }
  const content: PiContent[] = [{ type: "text", text }];
  if (output.image) {
    content.push({
      type: "image",
      data: Buffer.from(output.image.png).toString("base64"),
      mimeType: "image/png",
    });
  }
  return { content, details: output.json };
}
