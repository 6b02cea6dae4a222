/** Reading a tool call's arguments: each problem is a USAGE error naming the argument. */
import { CiteproofError } from "../errors.js";

export type ToolArgs = Record<string, unknown>;

export function asArgs(value: unknown): ToolArgs {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new CiteproofError("USAGE", "the tool's arguments must be a JSON object");
  }
  return value as ToolArgs;
}

export function requireString(args: ToolArgs, name: string): string {
  const value = args[name];
  if (value === undefined || value === null) throw usage(`argument "${name}" is missing`);
  if (typeof value !== "string") throw usage(`argument "${name}" must be a string`);
  if (value.length === 0) throw usage(`argument "${name}" is empty`);
  return value;
}

export function optionalString(args: ToolArgs, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw usage(`argument "${name}" must be a string`);
  return value;
}

export function optionalInteger(args: ToolArgs, name: string, min: number, max: number): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw usage(`argument "${name}" must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return value;
}

export function optionalNumber(args: ToolArgs, name: string, min: number, max: number): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    throw usage(`argument "${name}" must be a number from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return value;
}

export function requireArray(args: ToolArgs, name: string): unknown[] {
  const value = args[name];
  if (value === undefined || value === null) throw usage(`argument "${name}" is missing`);
  if (!Array.isArray(value)) throw usage(`argument "${name}" must be an array`);
  return value;
}

/** Rejects arguments the tool does not know, so a misspelt option is never silently ignored. */
export function rejectUnknown(args: ToolArgs, known: readonly string[]): void {
  for (const key of Object.keys(args)) {
    if (!known.includes(key)) {
      throw usage(`unknown argument "${key}" (expected ${known.map((k) => `"${k}"`).join(", ")})`);
    }
  }
}

function usage(message: string): CiteproofError {
  return new CiteproofError("USAGE", message);
}
