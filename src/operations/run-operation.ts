/**
 * The one door every interface goes through: the raw arguments read against the operation's schema
 * (every problem reported, each naming its field), the operation run, its result rendered for a
 * program (the JSON document and any image) and for a person (the text and the exit code). The CLI
 * only maps its flags to raw arguments; MCP and pi pass theirs on; each renders what comes back.
 */
import { nameSettings } from "../checks/setting-names.js";
import { parseInput } from "../util/parse-input.js";
import type { Operation, OperationContext, OperationImage } from "./operation.js";

export interface OperationOutcome<Input, Result> {
  input: Input;
  result: Result;
  /** The JSON document: the CLI's `--json`, a tool's structured content. */
  json: unknown;
  image?: OperationImage;
  /** The text for a person. */
  text(): string;
  /** 0: nothing failed; 1: something cited failed (errors are thrown, never an outcome). */
  exitCode: 0 | 1;
}

export async function runOperation<Input, Result>(
  op: Operation<Input, Result>,
  rawArgs: unknown,
  ctx: OperationContext,
): Promise<OperationOutcome<Input, Result>> {
  const input = parseInput(op.name, await op.schema(), rawArgs);
  const result = withSettingNames(await op.run(input, ctx), ctx);
  const image = op.image?.(result);
  return {
    input,
    result,
    json: op.json(result),
    ...(image ? { image } : {}),
    text: () => op.format(result, input),
    exitCode: op.exitCode(result),
  };
}

/** A result whose messages name the settings they tell to change as the context's interface does. */
export function withSettingNames<Result>(result: Result, ctx: OperationContext): Result {
  return ctx.settingName ? nameSettings(result, ctx.settingName) : result;
}
