/**
 * The part of the pi coding agent's extension API this extension uses, written out locally so
 * citeproof does not depend on pi. Shapes follow pi's documented ExtensionAPI.
 */

export type PiContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

export interface PiToolResult {
  content: PiContent[];
  details?: unknown;
}

export interface PiContext {
  /** The session's working directory. */
  cwd: string;
  ui: {
    notify(message: string, level?: "info" | "warning" | "error"): void;
  };
}

export interface PiToolDefinition {
  name: string;
  label: string;
  description: string;
  /** A JSON Schema object (pi validates arguments with it before execute). */
  parameters: unknown;
  execute(
    toolCallId: string,
    params: Record<string, unknown>,
    signal: AbortSignal | undefined,
    onUpdate: ((partial: PiToolResult) => void) | undefined,
    ctx: PiContext | undefined,
  ): Promise<PiToolResult>;
}

export interface PiCommandOptions {
  description: string;
  handler(args: string, ctx: PiContext): Promise<void>;
}

export interface ExtensionAPI {
  registerTool(tool: PiToolDefinition): void;
  registerCommand(name: string, options: PiCommandOptions): void;
}
