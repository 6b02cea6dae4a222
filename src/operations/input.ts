/**
 * Reading an operation's input against its schema. Every problem becomes a coded error naming the
 * field by its path, spelt one way everywhere: `citations[3].bounding_box.left`.
 */
import type { z } from "zod";
import { CiteproofError, type ErrorCode } from "../errors.js";
import { shown } from "../util/shown.js";
import type { InputSchema } from "./operation.js";

type Issue = z.core.$ZodIssue;

/** `["citations", 3, "bounding_box", "left"]` as `citations[3].bounding_box.left`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out.length === 0 ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * Parses a tool call's or request's arguments. A null field counts as left out (hosts send nulls for
 * optional arguments); a field the schema does not know is refused with its name.
 */
export function parseInput<Input>(what: string, schema: InputSchema<Input>, value: unknown): Input {
  const given = value ?? {};
  if (typeof given !== "object" || Array.isArray(given))
    throw new CiteproofError("USAGE", `the arguments of ${what} must be a JSON object`);
  const args = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== null));
  const parsed = schema.object.safeParse(args, { reportInput: true });
  if (parsed.success) return parsed.data as Input;
  const issue = parsed.error.issues[0];
  throw issueError(issue, codeFor(issue, schema), Object.keys(schema.object.shape));
}

/** A missing field and an unknown one at the top are USAGE; a bad value inside a field, its code. */
function codeFor(issue: Issue, schema: InputSchema<unknown>): ErrorCode {
  const top = issue.path[0];
  if (typeof top !== "string") return "USAGE";
  const missing = issue.code === "invalid_type" && (issue as { input?: unknown }).input === undefined;
  if (missing && issue.path.length === 1) return "USAGE";
  return (schema.fieldCodes as Record<string, ErrorCode> | undefined)?.[top] ?? "USAGE";
}

function issueError(issue: Issue, code: ErrorCode, known: readonly string[]): CiteproofError {
  const path = fieldPath(issue.path);
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0];
    const at = path.length === 0 ? key : `${path}.${key}`;
    const expected = path.length === 0 ? ` (expected ${known.map((k) => `"${k}"`).join(", ")})` : "";
    return new CiteproofError(code, `unknown argument "${at}"${expected}`, { path: at, field: key });
  }
  const field = [...issue.path].reverse().find((k) => typeof k === "string") as string | undefined;
  const info = { path, ...(field === undefined ? {} : { field }) };
  const input = (issue as { input?: unknown }).input;
  const subject = `argument "${path}"`;
  if (issue.code === "invalid_type" && input === undefined)
    return new CiteproofError(code, `${subject} is missing`, info);
  return new CiteproofError(code, `${subject} ${problem(issue, input)}`, {
    ...info,
    ...limitOf(issue),
  });
}

const KIND_OF: Record<string, string> = {
  string: "a string",
  number: "a finite number",
  int: "an integer",
  boolean: "true or false",
  array: "an array",
  object: "an object",
};

function problem(issue: Issue, input: unknown): string {
  const got = ` (got ${shown(input)})`;
  switch (issue.code) {
    case "invalid_type":
      return `must be ${KIND_OF[issue.expected] ?? issue.expected}${got}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}${got}`;
    case "too_small":
      if (issue.origin === "string")
        return Number(issue.minimum) <= 1 ? "is empty" : `must be at least ${issue.minimum} characters`;
      if (issue.origin === "array") return `must hold at least ${issue.minimum} item(s)`;
      return `must be ${issue.inclusive ? "at least" : "over"} ${issue.minimum}${got}`;
    case "too_big":
      if (issue.origin === "string")
        return `is ${String(input).length} characters, over the limit of ${issue.maximum}`;
      if (issue.origin === "array")
        return `holds ${(input as unknown[]).length} items, over the limit of ${issue.maximum}`;
      return `must be ${issue.inclusive ? "at most" : "under"} ${issue.maximum}${got}`;
    case "invalid_union":
      return `has the wrong type${got}`;
    default:
      return `is not valid (${issue.message})`;
  }
}

function limitOf(issue: Issue): { limit?: number } {
  if (issue.code === "too_small") return { limit: Number(issue.minimum) };
  if (issue.code === "too_big") return { limit: Number(issue.maximum) };
  return {};
}
