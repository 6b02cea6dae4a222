/**
 * An agent's call, for the MCP server and the pi extension alike: arguments read against the
 * operation's schema, the operation run, its JSON document and image returned. Errors are thrown.
 */
import { CiteproofError } from "../errors.js";
import { AGENT_OPERATIONS, findAgentOperation } from "./agent-operations.js";
import { MAX_CROP_PIXELS } from "./crop.js";
import type { AnyOperation, Operation, OperationContext, OperationImage } from "./operation.js";
import { runOperation } from "./run-operation.js";

export interface AgentOutput {
  /** The JSON document the matching CLI command prints with --json. */
  json: unknown;
  image?: OperationImage;
}

export function agentOperation(name: string): AnyOperation {
  const op = findAgentOperation(name);
  if (!op)
    throw new CiteproofError(
      "USAGE",
      `unknown tool "${name}" (available: ${AGENT_OPERATIONS.map((o) => o.name).join(", ")})`,
    );
  return op;
}

/**
 * An agent's context: its images are capped at what a model is handed, and a URL on a private
 * address is refused unless the context allows it.
 */
export function agentContext(ctx: OperationContext): OperationContext {
  return { maxImagePixels: MAX_CROP_PIXELS, privateUrls: "refuse", ...ctx };
}

/** Reads the arguments against the operation's schema and runs it; the input is returned for `format`. */
export async function runWithArgs<Input, Result>(
  op: Operation<Input, Result>,
  args: unknown,
  ctx: OperationContext,
): Promise<{ input: Input; result: Result }> {
  const { input, result } = await runOperation(op, args, agentContext(ctx));
  return { input, result };
}

export async function callOperation(
  op: AnyOperation,
  args: unknown,
  ctx: OperationContext,
): Promise<AgentOutput> {
  const { json, image } = await runOperation(op, args, agentContext(ctx));
  return image ? { json, image } : { json };
}
