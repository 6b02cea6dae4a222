/** Input fields several operations share, described once. */
import { z } from "zod";
import { evidenceListSchema } from "../../checks/evidence-record.js";

export const pdfField = z.string().min(1).describe("path of the PDF (for a tool: inside the allowed roots)");
export const passwordField = z.string().optional().describe("password of an encrypted PDF");

export const boxSchema = z
  .strictObject({ left: z.number(), bottom: z.number(), right: z.number(), top: z.number() })
  .describe("PDF points, default user space of the page (origin bottom-left of the MediaBox)");

/** The evidence records of a call: the records' one schema, shared with the library's validateEvidence. */
export const evidenceField = evidenceListSchema;
