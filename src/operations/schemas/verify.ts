/**
 * The input of verify, a module of its own: the command a user runs most builds this one schema, not
 * every PDF operation's (documents.ts).
 */
import { z } from "zod";
import { inputSchema } from "../operation.js";
import { evidenceField, ocrField, passwordField, pdfAliasField, sourceField } from "./fields.js";

export const verifyInput = inputSchema(
  z.strictObject({
    source: sourceField,
    pdf: pdfAliasField,
    evidence: evidenceField,
    ocr: ocrField,
    password: passwordField,
  }),
  { evidence: "EVIDENCE_INVALID" },
);
