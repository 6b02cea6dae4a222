/** The operations offered to agents as tools (MCP server, pi extension), in the order hosts list them. */
import { anchorsOperation } from "./anchors.js";
import { checkTextOperation } from "./check-text.js";
import { citeCheckOperation } from "./cite-check.js";
import { cropOperation } from "./crop.js";
import { locateOperation } from "./locate.js";
import type { AnyOperation } from "./operation.js";
import { verifyOperation } from "./verify.js";

export const AGENT_OPERATIONS: readonly AnyOperation[] = [
  verifyOperation,
  anchorsOperation,
  locateOperation,
  cropOperation,
  checkTextOperation,
  citeCheckOperation,
];

export function findAgentOperation(name: string): AnyOperation | undefined {
  return AGENT_OPERATIONS.find((op) => op.name === name);
}
