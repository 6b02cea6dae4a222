/** A JSON object (not null, not an array), as every reader of input and stored files tests for one. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
