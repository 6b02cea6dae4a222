/**
 * Reading an operation's input against its schema. Every problem becomes a coded error naming the
 * field by its path, spelt one way everywhere: `citations[3].bounding_box.left`.
 */
import type { z } from "zod";
import { CiteproofError, type ErrorCode, type InputIssue } from "../errors.js";
import { didYouMean } from "./field-names.js";
import { shown } from "./shown.js";

/** An input's schema and the code a bad value inside each top-level field is reported with. */
export interface InputSchema<Input> {
  object: z.ZodObject & z.ZodType<Input>;
  /** USAGE when a field is not listed, and always for a missing field or an unknown one at the top. */
  fieldCodes?: Partial<Record<keyof Input & string, ErrorCode>>;
}

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

/** How many of an input's problems its error lists; an input with more says how many were left out. */
export const MAX_LISTED_ISSUES = 100;
/** How many of them the one-line message spells out. */
const MAX_MESSAGE_ISSUES = 5;

/**
 * Parses a tool call's or request's arguments. A null field counts as left out (hosts send nulls for
 * optional arguments); a field the schema does not know is refused with its name. Every problem is
 * reported, not only the first, so a caller can mend its call in one round: the error's code and
 * `path` are the first problem's, `details.issues` lists each. Messages name fields as `{{path}}`,
 * which each interface writes in its own terms.
 */
export function parseInput<Input>(what: string, schema: InputSchema<Input>, value: unknown): Input {
  const given = value ?? {};
  if (typeof given !== "object" || Array.isArray(given))
    throw new CiteproofError("USAGE", `the arguments of ${what} must be a JSON object`);
  const args = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== null));
  const parsed = schema.object.safeParse(args, { reportInput: true });
  if (parsed.success) return parsed.data as Input;
  const issues = parsed.error.issues.flatMap((issue) => inputIssues(issue, schema, args));
  throw issuesError(issues);
}

/** The coded error of an input's problems: the first one's code and place, every one listed. */
export function issuesError(issues: readonly InputIssue[]): CiteproofError {
  const [first] = issues;
  const { code: _code, message: _message, ...place } = first;
  if (issues.length === 1) return new CiteproofError(first.code, first.message, place);
  const shownIssues = issues.slice(0, MAX_MESSAGE_ISSUES).map((i) => i.message);
  const more = issues.length - shownIssues.length;
  const message = `${issues.length} problems: ${shownIssues.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
  return new CiteproofError(first.code, message, {
    ...place,
    issues: issues.slice(0, MAX_LISTED_ISSUES),
    ...(issues.length > MAX_LISTED_ISSUES ? { unlisted_issues: issues.length - MAX_LISTED_ISSUES } : {}),
  });
}

/** A missing field and an unknown one at the top are USAGE; a bad value inside a field, its code. */
function codeFor(issue: Issue, schema: InputSchema<unknown>): ErrorCode {
  const top = issue.path[0];
  if (typeof top !== "string") return "USAGE";
  const missing = issue.code === "invalid_type" && (issue as { input?: unknown }).input === undefined;
  if (missing && issue.path.length === 1) return "USAGE";
  return (schema.fieldCodes as Record<string, ErrorCode> | undefined)?.[top] ?? "USAGE";
}

/** A zod issue as the input's problems (an issue of unknown keys is one problem per key). */
function inputIssues(issue: Issue, schema: InputSchema<unknown>, args: unknown): InputIssue[] {
  const path = fieldPath(issue.path);
  if (issue.code === "unrecognized_keys") {
    const code = issue.path.length === 0 ? "USAGE" : codeFor(issue, schema);
    const known = keysAt(schema.object, issue.path, args) ?? [];
    return issue.keys.map((key) => {
      const at = path.length === 0 ? key : `${path}.${key}`;
      const expected = known.length > 0 ? ` (expected ${known.map((k) => `"${k}"`).join(", ")})` : "";
      const near = didYouMean(key, known);
      return { path: at, field: key, code, message: `unknown {{${at}}}${near || expected}` };
    });
  }
  const code = codeFor(issue, schema);
  const field = [...issue.path].reverse().find((k) => typeof k === "string") as string | undefined;
  const place = { path, ...(field === undefined ? {} : { field }) };
  const input = (issue as { input?: unknown }).input;
  const subject = `{{${path}}}`;
  if (issue.code === "invalid_type" && input === undefined)
    return [{ ...place, code, message: `${subject} is missing` }];
  return [{ ...place, code, message: `${subject} ${problem(issue, input)}`, ...limitOf(issue) }];
}

/** The fields the object at `path` of the schema knows (the member a discriminator picks, in a union). */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[], value: unknown): string[] | undefined {
  let at: z.ZodType | undefined = schema;
  let v: unknown = value;
  for (const key of path) {
    at = unwrap(at, v);
    const def = at?._zod.def as { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType };
    if (def?.type === "object") at = def.shape?.[String(key)];
    else if (def?.type === "array") at = def.element;
    else return undefined;
    v = typeof v === "object" && v !== null ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  }
  const def = unwrap(at, v)?._zod.def as { type: string; shape?: Record<string, unknown> } | undefined;
  return def?.type === "object" && def.shape ? Object.keys(def.shape) : undefined;
}

/** The schema under optional, default and pipe wrappers; of a union, the member the value is of. */
function unwrap(schema: z.ZodType | undefined, value: unknown): z.ZodType | undefined {
  let at = schema;
  for (let depth = 0; at !== undefined && depth < 32; depth++) {
    const def = at._zod.def as {
      type: string;
      innerType?: z.ZodType;
      in?: z.ZodType;
      options?: z.ZodType[];
      discriminator?: string;
    };
    if (def.innerType !== undefined) at = def.innerType;
    else if (def.type === "pipe" && def.in !== undefined) at = def.in;
    else if (def.type === "union" && def.options !== undefined) {
      const tag = def.discriminator;
      const given = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
      at =
        tag === undefined
          ? def.options.find((o) => o._zod.def.type === "object")
          : def.options.find((o) => o._zod.propValues?.[tag]?.has(given[tag] as never));
    } else return at;
  }
  return at;
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
    case "invalid_union": {
      // A union told apart by a field (an evidence record's kind): the values that field may take.
      const tagged = issue as { note?: string; discriminator?: string; options?: unknown[] };
      if (tagged.discriminator !== undefined && tagged.options !== undefined) {
        const tag =
          typeof input === "object" && input !== null
            ? (input as Record<string, unknown>)[tagged.discriminator]
            : undefined;
        if (tag === undefined) return "is missing";
        return `must be one of ${tagged.options.map((v) => JSON.stringify(v)).join(", ")} (got ${shown(tag)})`;
      }
      // A union of plain types (an id: a string or a number): the types it takes.
      const kinds = (issue.errors ?? []).map((e) => e[0]).filter((e) => e?.code === "invalid_type");
      if (kinds.length > 0 && kinds.length === issue.errors.length)
        return `must be ${kinds.map((e) => KIND_OF[(e as { expected: string }).expected] ?? (e as { expected: string }).expected).join(" or ")}${got}`;
      return `has the wrong type${got}`;
    }
    case "custom":
      // A rule of the schema's own (refine): its message says what is wrong, after the field's name.
      return issue.message;
    default:
      return `is not valid (${issue.message})`;
  }
}

function limitOf(issue: Issue): { limit?: number } {
  if (issue.code === "custom") {
    const limit = (issue.params as { limit?: unknown } | undefined)?.limit;
    return typeof limit === "number" ? { limit } : {};
  }
  if (issue.code === "too_small") return { limit: Number(issue.minimum) };
  if (issue.code === "too_big") return { limit: Number(issue.maximum) };
  return {};
}
