/** Every agent tool, in the order hosts list them. */
import { anchorsTool } from "./anchors.js";
import { checkTextTool } from "./check-text.js";
import { citeCheckTool } from "./cite-check.js";
import { cropTool } from "./crop.js";
import type { AgentTool } from "./tool.js";
import { verifyTool } from "./verify.js";

export { type AgentTool, admitPath, type ToolEnv, type ToolImage, type ToolOutput } from "./tool.js";

export const AGENT_TOOLS: readonly AgentTool[] = [
  verifyTool,
  anchorsTool,
  cropTool,
  checkTextTool,
  citeCheckTool,
];

export function findTool(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((tool) => tool.name === name);
}
