/** Every operation, and those offered to agents as tools, in the order hosts list them. */
import { anchorsOperation } from "./anchors.js";
import { checkTextOperation } from "./check-text.js";
import { citeCheckOperation } from "./cite-check.js";
import { cropOperation } from "./crop.js";
import { locateOperation } from "./locate.js";
import type { AnyOperation } from "./operation.js";
import { reportOperation } from "./report.js";
import { verifyOperation } from "./verify.js";
import { verifyCitationsOperation } from "./verify-citations.js";

/** The tools of the MCP server and the pi extension (report writes files, so it is a command only). */
export const AGENT_OPERATIONS: readonly AnyOperation[] = [
  verifyOperation,
  anchorsOperation,
  locateOperation,
  cropOperation,
  checkTextOperation,
  citeCheckOperation,
];

/** Commands only: report writes files; verify_citations is `verify --citations-format`. */
export const OPERATIONS: readonly AnyOperation[] = [
  ...AGENT_OPERATIONS,
  reportOperation,
  verifyCitationsOperation,
];

export function findAgentOperation(name: string): AnyOperation | undefined {
  return AGENT_OPERATIONS.find((op) => op.name === name);
}
