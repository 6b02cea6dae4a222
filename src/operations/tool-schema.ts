/** The JSON Schema an agent host is given for an operation's input, made from the same zod schema. */
import { z } from "zod";
import type { InputSchema } from "./operation.js";

export interface ToolInputSchema {
  type: "object";
  properties: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean;
  [keyword: string]: unknown;
}

/**
 * An operation's output schema for an agent host: the JSON Schema of its document, an object. A
 * document may carry more than its schema lists (what a check saw), so no object in it is closed.
 */
export function toolOutputSchema(output: z.ZodType): ToolInputSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(output) as Record<string, unknown>;
  // A document of one of several shapes (anyOf) is still an object, which a host requires at the top.
  return { type: "object", ...(opened(json) as Record<string, unknown>) } as ToolInputSchema;
}

function opened(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(opened);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node))
    if (!(key === "additionalProperties" && value === false)) out[key] = opened(value);
  return out;
}

/** A plain object schema every agent host accepts: no top-level oneOf/anyOf, no `$schema`. */
export function toolInputSchema(schema: InputSchema<unknown>): ToolInputSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema.object) as Record<string, unknown>;
  return json as ToolInputSchema;
}
