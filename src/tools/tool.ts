/**
 * Agent tools: the library's checks as tool calls with JSON-schema inputs, shared by the MCP
 * server and the pi extension. A tool returns the JSON document the CLI prints with --json
 * (and, for crops, the image); a problem is a thrown CiteproofError, never a verdict.
 */
import { resolve } from "node:path";
import type { OpenOptions } from "../document/open.js";
import { admitLocalPath } from "../source/allowed-root.js";
import type { ToolArgs } from "./args.js";

/** Where a tool runs: the directory relative paths start from, and where files may be read. */
export interface ToolEnv {
  cwd: string;
  /** Allowed roots: a path is admitted only when its real location lies inside one of them. */
  roots: readonly string[];
  /** Cache and deadline options for opening documents. */
  open: Pick<OpenOptions, "cacheDir" | "noCache" | "timeoutMs" | "maxBytes">;
}

export interface ToolImage {
  png: Uint8Array;
  widthPx: number;
  heightPx: number;
}

export interface ToolOutput {
  /** The JSON document the matching CLI command prints with --json. */
  json: unknown;
  image?: ToolImage;
}

/** A JSON Schema for a tool's input object (a plain subset every agent host accepts: no oneOf). */
export interface InputSchema {
  type: "object";
  properties: Record<string, unknown>;
  required?: string[];
  additionalProperties?: boolean;
}

export interface AgentTool {
  name: string;
  title: string;
  description: string;
  inputSchema: InputSchema;
  /** True when the tool may reach beyond local files (a URL source). */
  openWorld?: boolean;
  run(args: ToolArgs, env: ToolEnv): Promise<ToolOutput>;
}

/** Resolves a path argument against the tool's working directory and admits it through the roots. */
export function admitPath(env: ToolEnv, path: string): string {
  return admitLocalPath(resolve(env.cwd, path), env.roots);
}
