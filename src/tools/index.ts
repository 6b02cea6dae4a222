/** Every agent tool, in the order hosts list them. */
import { checkTextTool } from "./check-text.js";
import { citeCheckTool } from "./cite-check.js";
import type { AgentTool } from "./tool.js";
import { verifyTool } from "./verify.js";

export { type AgentTool, admitPath, type ToolEnv, type ToolImage, type ToolOutput } from "./tool.js";

export const AGENT_TOOLS: readonly AgentTool[] = [verifyTool, checkTextTool, citeCheckTool];

export function findTool(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((tool) => tool.name === name);
}
