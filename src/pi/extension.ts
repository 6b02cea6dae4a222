/**
 * citeproof as an extension of the pi coding agent: the agent operations as LLM-callable tools named
 * citeproof_<name>, and a /citeproof command for a person. Install: see docs/pi.md.
 */
import { delimiter, resolve } from "node:path";
import { type ErrorDocument, errorDocument } from "../error-document.js";
import { argumentName, asCiteproofError, CiteproofError, type Naming, renderMessage } from "../errors.js";
import { type AgentOutput, callOperation } from "../operations/agent-call.js";
import { AGENT_OPERATIONS } from "../operations/agent-operations.js";
import type { AnyOperation, OperationContext } from "../operations/operation.js";
import { INPUT_SCHEMAS } from "../operations/schemas/index.js";
import { toolInputSchema } from "../operations/tool-schema.js";
import type { ExtensionAPI, PiContent, PiContext, PiToolResult } from "./api.js";
import { runCommand } from "./command.js";

/** pi's own limit on what a tool hands the model; the full document stays in `details`. */
export const MAX_TOOL_TEXT = 50_000;
export const ROOTS_ENV = "CITEPROOF_ALLOW_ROOTS";

/** A setting a message names, as a pi user can change it. */
export function settingName(option: string): string {
  return option === "allow_root" ? ROOTS_ENV : option;
}

/** How pi's messages name things: a setting as a pi user changes it, a field as the tool's argument. */
export const PI_NAMING: Naming = { option: settingName, field: argumentName };

/**
 * A failed tool call (pi marks a call failed when execute throws): its message is the compact error
 * document every interface gives, `{"error":{code,message,details}}`, which the model reads.
 */
export class PiToolError extends Error {
  readonly document: ErrorDocument;

  constructor(document: ErrorDocument) {
    super(JSON.stringify({ error: document }));
    this.name = "PiToolError";
    this.document = document;
  }
}

export default function citeproofExtension(pi: ExtensionAPI): void {
  for (const op of AGENT_OPERATIONS) {
    pi.registerTool({
      name: `citeproof_${op.name}`,
      label: `citeproof ${op.name.replace(/_/g, "-")}`,
      description: op.description,
      parameters: toolInputSchema(INPUT_SCHEMAS[op.name as keyof typeof INPUT_SCHEMAS]),
      execute: (_toolCallId, params, signal, _onUpdate, ctx) => execute(op, params, signal, ctx),
    });
  }
  pi.registerCommand("citeproof", {
    description: "check citations against a PDF: /citeproof verify|check-text|report|help ...",
    handler: async (args, ctx) => {
      try {
        const { level, text } = await runCommand(args, contextFor(ctx));
        ctx.ui.notify(text, level);
      } catch (error) {
        const coded = asCiteproofError(error);
        ctx.ui.notify(`citeproof: error [${coded.code}]: ${renderMessage(coded, PI_NAMING)}`, "error");
      }
    },
  });
}

async function execute(
  op: AnyOperation,
  params: Record<string, unknown>,
  signal: AbortSignal | undefined,
  ctx: PiContext | undefined,
): Promise<PiToolResult> {
  try {
    if (signal?.aborted) throw new CiteproofError("USAGE", "the tool call was cancelled");
    return toPiResult(await callOperation(op, stripAt(params), contextFor(ctx)));
  } catch (error) {
    throw new PiToolError(errorDocument(error, PI_NAMING));
  }
}

/** Some models write paths as @file; the agent's own tools accept that, so these do too. */
function stripAt(args: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (typeof args !== "object" || args === null) return args;
  const out = { ...args };
  if (typeof out.pdf === "string") out.pdf = out.pdf.replace(/^@/, "");
  if (typeof out.source === "string") out.source = out.source.replace(/^@/, "");
  if (typeof out.draft === "string") out.draft = out.draft.replace(/^@/, "");
  return out;
}

/** Tools read inside the session's working directory, or the roots CITEPROOF_ALLOW_ROOTS names. */
export function contextFor(ctx: PiContext | undefined): OperationContext {
  const cwd = ctx?.cwd ?? process.cwd();
  const configured = (process.env[ROOTS_ENV] ?? "").split(delimiter).filter((p) => p.length > 0);
  return {
    cwd,
    access: configured.length > 0 ? configured.map((p) => resolve(cwd, p)) : [cwd],
    open: {},
  };
}

export function toPiResult(output: AgentOutput): PiToolResult {
  let text = JSON.stringify(output.json);
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
