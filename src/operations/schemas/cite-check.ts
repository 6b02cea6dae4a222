/** The located quote check's request form, as `cite-check --request` and the cite_check tool take it. */
import { z } from "zod";
import { CITE_CHECK_LIMITS as L } from "../../checks/cite-check/limits.js";
import { NORMALIZATIONS, OCR_MODES } from "../../checks/cite-check/verdicts.js";
import { inputSchema } from "../operation.js";
import { boxSchema } from "./fields.js";

const citationSchema = z.strictObject({
  id: z.string().optional(),
  quote: z.string().max(L.maxQuoteUtf16),
  page: z.int().min(1).describe("one-based physical page"),
  bounding_box: boxSchema,
});

export const citeCheckInput = inputSchema(
  z.strictObject({
    operation: z.literal("cite_check").optional().describe("optional; always cite_check"),
    sources: z
      .array(z.strictObject({ path: z.string().optional(), url: z.string().optional() }))
      .min(1)
      .max(1)
      .describe('exactly one source: {"path": ...} inside the allowed roots, or {"url": "https://..."}'),
    citations: z.array(citationSchema).min(L.minCitations).max(L.maxCitations),
    normalization: z.enum(NORMALIZATIONS).optional().describe("default none"),
    expected_source_sha256: z.string().optional().describe("64 hex digits; a mismatch decides first"),
    ocr: z.enum(OCR_MODES).optional(),
    timeout_ms: z.int().min(L.minTimeoutMs).max(L.maxTimeoutMs).optional(),
    max_output_chars: z.int().min(L.minOutputChars).max(L.maxOutputChars).optional(),
  }),
);
