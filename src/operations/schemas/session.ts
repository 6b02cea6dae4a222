/** Inputs of the review-session operations. */
import { z } from "zod";
import { inputSchema } from "../operation.js";
import { MAX_DRAFT_CHARS } from "./documents.js";
import { evidenceField, passwordField, pdfField } from "./fields.js";

const nameField = z
  .string()
  .describe("the session's name: 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
const sessionField = z
  .string()
  .min(1)
  .optional()
  .describe("the session folder (default: .citeproof/sessions/<name> under the working directory)");
const originalField = z
  .string()
  .min(1)
  .optional()
  .describe("the original (a PDF or a flow source); refused unless it is the one the session is bound to");
const draftField = z.string().max(MAX_DRAFT_CHARS).describe("the draft's text");

/** A PDF stored in the session: its original (session_new) or a revision (session_revise). */
export const sessionNewInput = inputSchema(
  z.strictObject({ name: nameField, pdf: pdfField, session: sessionField, password: passwordField }),
);
export const sessionReviseInput = sessionNewInput;

export const sessionVerifyInput = inputSchema(
  z.strictObject({ name: nameField, evidence: evidenceField, session: sessionField, pdf: originalField }),
  { evidence: "EVIDENCE_INVALID" },
);

export const sessionPoolInput = inputSchema(z.strictObject({ name: nameField, session: sessionField }));

export const sessionDraftInputInput = inputSchema(
  z.strictObject({ name: nameField, session: sessionField, pdf: originalField }),
);

/** A draft checked in the session: against the pool (session_check_draft) or the original (session_check_text). */
export const sessionCheckDraftInput = inputSchema(
  z.strictObject({ name: nameField, draft: draftField, session: sessionField, pdf: originalField }),
);
export const sessionCheckTextInput = sessionCheckDraftInput;

export const sessionCompareInput = inputSchema(
  z.strictObject({
    name: nameField,
    session: sessionField,
    revision: z.string().optional().describe("the revision to compare with (default: the latest)"),
  }),
);
