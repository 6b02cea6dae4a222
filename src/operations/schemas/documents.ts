/** Inputs of the operations that read one PDF: verify, anchors, locate, crop, check_text, report. */
import { z } from "zod";
import { CITATIONS_FORMATS } from "../../checks/citation-formats.js";
import { OCR_MODES } from "../../checks/cite-check/verdicts.js";
import { MAX_RENDER_DPI, MIN_RENDER_DPI } from "../../document/render.js";
import { inputSchema } from "../operation.js";
import {
  boxSchema,
  evidenceField,
  ocrField,
  passwordField,
  pdfAliasField,
  pdfField,
  sourceField,
} from "./fields.js";

/** A draft longer than this is refused from a tool: a tool call carries a draft, not a library. */
export const MAX_DRAFT_CHARS = 2_000_000;

export { verifyInput } from "./verify.js";

export const anchorsInput = inputSchema(
  z.strictObject({
    pdf: pdfField,
    ocr: z
      .enum(OCR_MODES)
      .optional()
      .describe(
        "auto or tesseract: also read the scanned pages by OCR and list the equation labels found there " +
          "that the text layer does not hold (layer `ocr`: OCR can misread)",
      ),
    explain: z
      .boolean()
      .optional()
      .describe(
        "give every equation-label and figure-caption candidate the features measured on the page and the decision's " +
          "predicates that held for it (decided afresh, not from the cache)",
      ),
    password: passwordField,
  }),
);

export const locateInput = inputSchema(
  z.strictObject({
    source: sourceField,
    pdf: pdfAliasField,
    text: z.string().describe("the words to find; `...` or `…` may stand for words left out"),
    password: passwordField,
  }),
);

export const cropInput = inputSchema(
  z.strictObject({
    pdf: pdfField,
    page: z.int().min(1).optional().describe("physical page; optional with anchor"),
    box: boxSchema
      .optional()
      .describe("region in PDF points; the whole page when neither box nor anchor is given"),
    anchor: z.string().optional().describe("equation:LABEL or figure:LABEL, as the anchors tool lists them"),
    dpi: z
      .number()
      .min(MIN_RENDER_DPI)
      .max(MAX_RENDER_DPI)
      .optional()
      .describe("default 150; an image handed to a tool is at most 12 million pixels"),
    explain: z
      .boolean()
      .optional()
      .describe(
        "also list the page's equation-label and figure-caption candidates (accepted or rejected, with the predicates that decided them) and draw them over the image as SVG",
      ),
    password: passwordField,
  }),
  { box: "BOX_INVALID" },
);

export const checkTextInput = inputSchema(
  z.strictObject({
    source: sourceField,
    pdf: pdfField.optional().describe("the one PDF the draft cites (give this, source, or bib)"),
    bib: z
      .string()
      .min(1)
      .optional()
      .describe(
        "instead of pdf: the draft's bibliography (BibTeX/BibLaTeX, CSL-JSON, or a JSON map {key: path-or-URL}; " +
          "inside the allowed roots); its entries' files are read inside the roots and the bibliography's folder",
      ),
    draft_name: z
      .string()
      .optional()
      .describe("with bib: the draft's file name, whose extension (.md, .tex, .txt) says how to read it"),
    fetch: z
      .boolean()
      .optional()
      .describe("with bib: fetch entries whose source is a URL (else FLAG source-unavailable)"),
    draft: z.string().min(1).max(MAX_DRAFT_CHARS).describe("the draft's text"),
    ocr: ocrField,
    password: passwordField,
  }),
);

export const reportInput = inputSchema(
  z.strictObject({
    source: sourceField,
    pdf: pdfAliasField,
    evidence: evidenceField,
    out: z.string().min(1).describe("the HTML file to write (replaced atomically)"),
    dpi: z.number().min(MIN_RENDER_DPI).max(MAX_RENDER_DPI).optional().describe("resolution of the crops"),
    order: z
      .enum(["verdict", "input"])
      .optional()
      .describe(
        "verdict (default): FAIL first, then FLAG, PASS, UNANCHORED; input: as the evidence lists them",
      ),
    ocr: ocrField,
    inline_images: z
      .boolean()
      .optional()
      .describe(
        "put the crops inside the HTML as data URIs (one self-contained file) instead of a folder beside it",
      ),
    password: passwordField,
  }),
  { evidence: "EVIDENCE_INVALID" },
);

export const verifyCitationsInput = inputSchema(
  z.strictObject({
    source: sourceField,
    pdf: pdfAliasField,
    format: z
      .enum(CITATIONS_FORMATS)
      .describe(
        "anthropic: Messages API citation blocks (page_location); w3c: Web Annotation TextQuoteSelectors",
      ),
    citations: z
      .union([z.array(z.unknown()), z.looseObject({})])
      .describe("the citations as the other tool wrote them: a response, its content blocks, or a list"),
    document_index: z
      .int()
      .min(0)
      .optional()
      .describe("anthropic: the request's document the PDF is (default 0); citations of others are skipped"),
    password: passwordField,
  }),
  { citations: "EVIDENCE_INVALID" },
);
