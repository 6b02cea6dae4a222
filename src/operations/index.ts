/** Every operation: the agent tools first, then the commands only. */
import { AGENT_OPERATIONS } from "./agent-operations.js";
import type { AnyOperation } from "./operation.js";
import { reportOperation } from "./report.js";
import {
  sourceFetchOperation,
  sourceLocalOperation,
  sourceReadOperation,
  sourceRegisterOperation,
  sourceSpansOperation,
} from "./source.js";
import { verifyCitationsOperation } from "./verify-citations.js";

export { AGENT_OPERATIONS };

/**
 * Commands only: report writes files; verify_citations is `verify --citations-format`; the source
 * operations write an evidence run's store and event log.
 */
export const OPERATIONS: readonly AnyOperation[] = [
  ...AGENT_OPERATIONS,
  reportOperation,
  verifyCitationsOperation,
  sourceFetchOperation,
  sourceLocalOperation,
  sourceRegisterOperation,
  sourceReadOperation,
  sourceSpansOperation,
];
