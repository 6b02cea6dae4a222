/** Each operation's input schema under the operation's name: the one place they are paired. */
import { citeCheckInput } from "./cite-check.js";
import {
  anchorsInput,
  checkTextInput,
  cropInput,
  locateInput,
  reportInput,
  verifyCitationsInput,
  verifyInput,
} from "./documents.js";
import { runAssembleInput, runNewInput, runPromoteInput, runReportInput, runVerifyInput } from "./run.js";
import {
  sessionCheckDraftInput,
  sessionCheckTextInput,
  sessionCompareInput,
  sessionDraftInputInput,
  sessionNewInput,
  sessionPoolInput,
  sessionReviseInput,
  sessionVerifyInput,
} from "./session.js";
import {
  sourceFetchInput,
  sourceLocalInput,
  sourceReadInput,
  sourceRegisterInput,
  sourceSpansInput,
} from "./source.js";

export const INPUT_SCHEMAS = {
  verify: verifyInput,
  anchors: anchorsInput,
  locate: locateInput,
  crop: cropInput,
  check_text: checkTextInput,
  cite_check: citeCheckInput,
  report: reportInput,
  verify_citations: verifyCitationsInput,
  source_fetch: sourceFetchInput,
  source_local: sourceLocalInput,
  source_register: sourceRegisterInput,
  source_read: sourceReadInput,
  source_spans: sourceSpansInput,
  run_new: runNewInput,
  run_assemble: runAssembleInput,
  run_verify: runVerifyInput,
  run_report: runReportInput,
  run_promote: runPromoteInput,
  session_new: sessionNewInput,
  session_verify: sessionVerifyInput,
  session_pool: sessionPoolInput,
  session_draft_input: sessionDraftInputInput,
  session_check_draft: sessionCheckDraftInput,
  session_check_text: sessionCheckTextInput,
  session_revise: sessionReviseInput,
  session_compare: sessionCompareInput,
};
