/**
 * One JSON-RPC message as it arrives, over stdio or HTTP, screened before the SDK sees it: text that
 * is not JSON is a Parse error (-32700), a batch or a value nested deeper than MAX_JSON_DEPTH an
 * Invalid Request (-32600), and a `tools/call` whose params are not a name and an arguments object
 * Invalid params (-32602; an argument named `__proto__` too, which the SDK would drop unseen), each
 * answered with one short message. The SDK answers such messages with
 * nothing (stdio), a zod dump as an Internal error (-32603), or by running every call of a batch at
 * once past the server's limits.
 */
import { isObject } from "../util/json-object.js";

/** The deepest nesting of arrays and objects a message may have (tool arguments need a handful). */
export const MAX_JSON_DEPTH = 64;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

export type MessageId = string | number | null;

export interface Refusal {
  code: number;
  message: string;
  /** The request's id when it could be read, else null. */
  id: MessageId;
  /** How many messages a refused batch held. */
  batch?: number;
}

export type Screened = { message: Record<string, unknown> } | { refused: Refusal };

export function screenMessage(text: string): Screened {
  // A batch is refused unparsed: 16 MiB of `{}` would be millions of objects for nothing.
  if (/^\s*\[/.test(text)) {
    const batch = topLevelItems(text);
    return {
      refused: {
        code: INVALID_REQUEST,
        message: `batches are not accepted (this one held ${batch} messages): send each message on its own`,
        id: null,
        batch,
      },
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refused(PARSE_ERROR, "Parse error: the message is not JSON", null);
  }
  if (!isObject(value)) return refused(INVALID_REQUEST, "a message must be a JSON object", null);
  const id = idOf(value.id);
  if (value.jsonrpc !== "2.0") return refused(INVALID_REQUEST, 'a message must carry "jsonrpc": "2.0"', id);
  if (typeof value.method !== "string" && !("result" in value || "error" in value))
    return refused(
      INVALID_REQUEST,
      "a message must be a request (a method), or a response (a result or error)",
      id,
    );
  // JSON.parse does not recurse; what reads the message after it (the SDK's schemas) does.
  if (nestingDepth(text) > MAX_JSON_DEPTH)
    return refused(INVALID_REQUEST, `the message is nested deeper than ${MAX_JSON_DEPTH} levels`, id);
  if (value.method === "tools/call") {
    const problem = toolCallProblem(value.params);
    if (problem) return refused(INVALID_PARAMS, `Invalid params: ${problem}`, id);
  }
  return { message: value };
}

/** What is wrong with a `tools/call`'s params, if anything. */
function toolCallProblem(params: unknown): string | undefined {
  if (!isObject(params)) return "params must be an object holding the tool's name and its arguments";
  if (typeof params.name !== "string") return "params.name must be the tool's name, a string";
  const args = params.arguments;
  if (args !== undefined && args !== null && !isObject(args))
    return `params.arguments must be an object (got ${Array.isArray(args) ? "an array" : typeof args})`;
  // The SDK copies the arguments into a new object, where this name would set its prototype and vanish.
  if (isObject(args) && Object.hasOwn(args, "__proto__"))
    return 'unknown argument "__proto__" (no tool takes an argument of that name)';
  return undefined;
}

function idOf(id: unknown): MessageId {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

function refused(code: number, message: string, id: MessageId): Screened {
  return { refused: { code, message, id } };
}

/** The JSON-RPC error answering a refused message. */
export function refusalMessage(refusal: Refusal): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: refusal.id,
    error: { code: refusal.code, message: refusal.message },
  });
}

/** How many items the outermost array of `text` holds, counted without parsing. */
export function topLevelItems(text: string): number {
  let depth = 0;
  let items = 0;
  let last = -1;
  for (const [at, c] of structure(text)) {
    if (c === COMMA) {
      if (depth === 1) items++;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth++ === 0) last = at;
    } else if (--depth === 0) return items > 0 || text.slice(last + 1, at).trim() !== "" ? items + 1 : 0;
  }
  return items + 1;
}

/**
 * The deepest nesting of `[` and `{` outside strings, read without parsing (so nothing recursive
 * ever meets a value nested 100,000 deep). Text that is not JSON gives some number; the parse that
 * follows refuses it.
 */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const [, c] of structure(text)) {
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) deepest = Math.max(deepest, ++depth);
    else if (c !== COMMA) depth--;
  }
  return deepest;
}

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/** The brackets, braces and commas of JSON text outside its strings: [index, character code]. */
function* structure(text: string): Generator<[number, number]> {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT || c === CLOSE_ARRAY || c === CLOSE_OBJECT || c === COMMA)
      yield [i, c];
  }
}
