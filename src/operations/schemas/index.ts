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
};
