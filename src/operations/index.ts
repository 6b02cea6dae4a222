/** Every operation: the agent tools first, then the commands only. */
import { AGENT_OPERATIONS } from "./agent-operations.js";
import type { AnyOperation } from "./operation.js";
import { reportOperation } from "./report.js";
import {
  runAssembleOperation,
  runNewOperation,
  runPromoteOperation,
  runReportOperation,
  runVerifyOperation,
} from "./run.js";
import {
  sessionCheckDraftOperation,
  sessionCheckTextOperation,
  sessionCompareOperation,
  sessionDraftInputOperation,
  sessionNewOperation,
  sessionPoolOperation,
  sessionReviseOperation,
  sessionVerifyOperation,
} from "./session.js";
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
 * Commands only: report writes files; verify_citations is `verify --citations-format`; the session,
 * run and source operations write a session's or an evidence run's store. The command of `session_new`
 * is `citeproof session new`: the group, then the rest of the name in kebab-case.
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
  runNewOperation,
  runAssembleOperation,
  runVerifyOperation,
  runReportOperation,
  runPromoteOperation,
  sessionNewOperation,
  sessionVerifyOperation,
  sessionPoolOperation,
  sessionDraftInputOperation,
  sessionCheckDraftOperation,
  sessionCheckTextOperation,
  sessionReviseOperation,
  sessionCompareOperation,
];
