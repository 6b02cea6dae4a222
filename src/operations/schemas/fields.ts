/** Input fields several operations share, described once. */
import { z } from "zod";
import { OCR_MODES } from "../../checks/cite-check/verdicts.js";
import { evidenceListSchema } from "../../checks/evidence-record.js";

export const pdfField = z.string().min(1).describe("path of the PDF (for a tool: inside the allowed roots)");
/** The source a verify or locate reads, of any kind; `pdf` stays as its alias. */
export const sourceField = z
  .string()
  .min(1)
  .optional()
  .describe(
    "path of the cited source (for a tool: inside the allowed roots): a PDF, or a flow source (HTML, XHTML, " +
      "Markdown, plain text), its kind recognised by its content; give source or pdf",
  );
export const pdfAliasField = z
  .string()
  .min(1)
  .optional()
  .describe("alias of source for a PDF: content that is not a PDF is NOT_PDF");
export const passwordField = z.string().optional().describe("password of an encrypted PDF");

export const boxSchema = z
  .strictObject({ left: z.number(), bottom: z.number(), right: z.number(), top: z.number() })
  .describe("PDF points, default user space of the page (origin bottom-left of the MediaBox)");

/** The evidence records of a call: the records' one schema, shared with the library's validateEvidence. */
export const evidenceField = evidenceListSchema;

/** OCR of cited pages for the quotation checks of verify and check_text. */
export const ocrField = z
  .enum(OCR_MODES)
  .optional()
  .describe(
    "auto: OCR cited pages whose words are an image (no text layer, or only a stamp over a scan); " +
      "tesseract: also pages where the text layer gives no PASS. A PASS on OCR text says so.",
  );
