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

/** A plain object schema every agent host accepts: no top-level oneOf/anyOf, no `$schema`. */
export function toolInputSchema(schema: InputSchema<unknown>): ToolInputSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema.object) as Record<string, unknown>;
  return json as ToolInputSchema;
}
