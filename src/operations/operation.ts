/**
 * An operation: one thing citeproof does, declared once. Its input schema (zod, in `schemas/`) is the
 * parser, the TypeScript type and the JSON Schema agent hosts are given; `run` does the work and
 * returns a typed result; `format` writes that result for a person and `exitCode` says how the CLI
 * ends. The CLI, the MCP server and the pi extension are adapters around these, through one door
 * (`runOperation`): raw arguments in, parsed, run, rendered. Messages name an input field as
 * `{{path}}` and never a flag or an argument of one interface; each interface names it when it prints.
 */
import type { z } from "zod";
import { DEFAULT_TIMEOUT_MS } from "../document/deadline-default.js";
import type { OpenOptions } from "../document/open.js";
import type { ErrorCode } from "../errors.js";
import type { OcrEngineChoice } from "../ocr/tesseract.js";
import type { PathAccess } from "../source/allowed-root.js";
import { Deadline } from "../util/deadline.js";
import type { InputSchema } from "../util/parse-input.js";

export type { InputSchema };

/** Where an operation runs, set by the interface that calls it. */
export interface OperationContext {
  /** Relative paths start here. */
  cwd: string;
  /**
   * Which paths may be read (see paths.ts): "anywhere" for a path a person typed on the command line,
   * otherwise the allowed roots a path from data must resolve into.
   */
  access: PathAccess;
  /** Cache, deadline and size options for opening documents, and who hears of the pages read. */
  open: Pick<OpenOptions, "cacheDir" | "noCache" | "timeoutMs" | "maxBytes" | "jobs" | "onProgress">;
  /**
   * The most pixels an image the operation renders may have: an agent's images are capped (a model
   * is handed them); a person's, written to a file, are not.
   */
  maxImagePixels?: number;
  /**
   * Whether a URL source on a loopback, private or link-local address is fetched: "refuse" for an
   * agent's call unless its server allows them; "allow" (the default) for a URL a person gave.
   */
  privateUrls?: "allow" | "refuse";
  /** Which OCR engine reads when OCR is asked for (default auto: the system's tesseract when installed). */
  ocrEngine?: OcrEngineChoice;
  /**
   * How the interface names a setting a result's message tells to change, given the field (`timeout_ms`
   * is the CLI's `--timeout-ms`); by default the field's own name.
   */
  settingName?: (setting: string) => string;
}

export interface OperationImage {
  png: Uint8Array;
  widthPx: number;
  heightPx: number;
}

export interface Operation<Input, Result> {
  /** The tool name (snake_case); the CLI command is the same name in kebab-case. */
  name: string;
  title: string;
  description: string;
  /** True when the operation may reach beyond local files (a URL source). */
  openWorld?: boolean;
  /** The input schema; loaded on demand, with the command that needs it. */
  schema(): Promise<InputSchema<Input>>;
  /**
   * The schema of the JSON document `json` returns (an agent tool's output schema and structured
   * content); loaded on demand. Every agent operation declares one.
   */
  output?(): Promise<z.ZodType>;
  run(input: Input, ctx: OperationContext): Promise<Result>;
  /** The JSON document the CLI prints with --json and the tools return. */
  json(result: Result): unknown;
  /** An image the result carries, handed to agents as image content. */
  image?(result: Result): OperationImage;
  /** The result for a person; `input` gives the names the person used. */
  format(result: Result, input: Input): string;
  /** 0: nothing failed; 1: something cited failed. Errors are exit 2 and never reach here. */
  exitCode(result: Result): 0 | 1;
}

/** Any operation, as the adapters that list them see it. */
// biome-ignore lint/suspicious/noExplicitAny: an adapter treats every operation alike.
export type AnyOperation = Operation<any, any>;

/** Declares an operation, keeping its input and result types. */
export function defineOperation<Input, Result>(op: Operation<Input, Result>): Operation<Input, Result> {
  return op;
}

/** An input schema with the codes its fields' problems are reported with. */
export function inputSchema<Object extends z.ZodObject>(
  object: Object,
  fieldCodes?: Partial<Record<keyof z.infer<Object> & string, ErrorCode>>,
): InputSchema<z.infer<Object>> & { object: Object } {
  return { object, fieldCodes } as InputSchema<z.infer<Object>> & { object: Object };
}

/**
 * The deadline of one call, counted from its start (`timeout_ms`, `--timeout-ms`): extraction keeps
 * it by its own timer, the layout rules on the main thread by checking it as they go.
 */
export function callDeadline(ctx: OperationContext): Deadline {
  return new Deadline(ctx.open.timeoutMs ?? DEFAULT_TIMEOUT_MS);
}
