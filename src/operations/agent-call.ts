/**
 * An agent's call, for the MCP server and the pi extension alike: arguments read against the
 * operation's schema, the operation run, its JSON document and image returned. Errors are thrown.
 */
import { CiteproofError } from "../errors.js";
import { AGENT_OPERATIONS, findAgentOperation } from "./agent-operations.js";
import { parseInput } from "./input.js";
import type { AnyOperation, Operation, OperationContext, OperationImage } from "./operation.js";

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

/** Reads the arguments against the operation's schema and runs it; the input is returned for `format`. */
export async function runWithArgs<Input, Result>(
  op: Operation<Input, Result>,
  args: unknown,
  ctx: Omit<OperationContext, "caller">,
): Promise<{ input: Input; result: Result }> {
  const input = parseInput(op.name, await op.schema(), args);
  return { input, result: await op.run(input, { ...ctx, caller: "agent" }) };
}

export async function callOperation(
  op: AnyOperation,
  args: unknown,
  ctx: Omit<OperationContext, "caller">,
): Promise<AgentOutput> {
  const { result } = await runWithArgs(op, args, ctx);
  const image = op.image?.(result);
  return image ? { json: op.json(result), image } : { json: op.json(result) };
}
