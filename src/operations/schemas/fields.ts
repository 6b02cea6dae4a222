/** Input fields several operations share, described once. */
import { z } from "zod";
import { EVIDENCE_LIMITS as E, EVIDENCE_KINDS } from "../../checks/evidence-record.js";

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

export const evidenceRecordSchema = z
  .strictObject({
    id: z.union([z.string(), z.number()]).optional().describe("your identifier, echoed in the result"),
    // Listed for hosts; which kinds exist and what each needs is the record's own rule
    // (checks/evidence-record.ts), which names an unknown kind by its record.
    kind: z.string().meta({ enum: [...EVIDENCE_KINDS] }),
    page: z.int().min(1).optional(),
    endPage: z
      .int()
      .min(1)
      .optional()
      .describe("kind quotation: the page the words run onto (page + 1), when they cross a page break"),
    section: z
      .string()
      .max(E.maxNameUtf16)
      .optional()
      .describe(
        "kind quotation on a flow source: the heading the words stand under (its words, its number, or both); subsections included",
      ),
    text: z.string().max(E.maxTextUtf16).optional().describe("the quoted words (kind quotation)"),
    label: z
      .union([z.string(), z.number()])
      .optional()
      .describe("the bare label (kinds equation and figure)"),
  })
  .describe(
    'One evidence record: {"kind":"quotation","page":3,"text":"..."} (add "endPage":4 when the words run onto the next page; ' +
      'on a flow source name "section" instead of "page", or neither), {"kind":"page","page":2}, ' +
      '{"kind":"equation","label":"2.1"} or {"kind":"figure","label":"3"}; optional "id". Pages are ' +
      "physical (the first page is 1); labels are bare (no parentheses, no 'Figure').",
  );

export const evidenceField = z
  .array(evidenceRecordSchema)
  .max(E.maxRecords)
  .describe("the evidence records to check");
