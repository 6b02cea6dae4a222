/**
 * Each agent operation's output schema: the JSON document it returns (the CLI's `--json`, a tool's
 * structured content). Results are made from the check results' own schemas (checks/result.ts,
 * keyed by reason); the envelopes list the fields every document carries and are open to more.
 */
import { z } from "zod";
import { CITE_REASON_VERDICT, CITE_REASONS, CITE_VERDICTS } from "../../checks/cite-check/verdicts.js";
import { checkResultSchema, spanSchema } from "../../checks/result.js";
import { REASON_VERDICTS, REASONS, VERDICTS } from "../../checks/verdicts.js";
import { FLOW_KINDS } from "../../document/flow/model.js";
import { TEXT_LAYERS } from "../../document/text-layer-kind.js";

const box = z.object({ left: z.number(), bottom: z.number(), right: z.number(), top: z.number() });
const documentSchema = z.looseObject({ sha256: z.string(), pages: z.int() });
const flowDocumentSchema = z.looseObject({ sha256: z.string(), kind: z.enum(FLOW_KINDS) });
/** The document checked: a PDF, or a flow source (which has paragraphs, not pages). */
const sourceDocumentSchema = z.union([documentSchema, flowDocumentSchema.extend({ paragraphs: z.int() })]);

export const verifyOutput = z.looseObject({
  document: sourceDocumentSchema,
  results: z.array(checkResultSchema),
});

export const anchorsOutput = z.looseObject({
  document: documentSchema.extend({ pagesByLayer: z.partialRecord(z.enum(TEXT_LAYERS), z.array(z.int())) }),
  sha256: z.string(),
  pageCount: z.int(),
  equations: z.array(z.looseObject({ label: z.string(), page: z.int(), labelBox: box })),
  figures: z.array(z.looseObject({ label: z.string(), page: z.int(), labelBox: box })),
  rejectedEquationCandidates: z.array(z.looseObject({ page: z.int() })),
  rejectedCaptions: z.array(z.looseObject({ page: z.int() })),
  pagesWithoutText: z.array(z.int()),
});

const pdfOccurrence = z.looseObject({
  page: z.int(),
  printedPage: z.string().nullable(),
  endPage: z.int().optional(),
  parts: z.array(spanSchema.extend({ boxes: z.array(box).optional() })),
  box,
});
/** On a flow source: the section cited and the parts, in code points of the document's text. */
const flowOccurrence = z.looseObject({
  section: z.string(),
  parts: z.array(z.looseObject({ startCp: z.int(), endCp: z.int(), text: z.string(), paragraph: z.int() })),
});

export const locateOutput = z.looseObject({
  document: z.union([documentSchema, flowDocumentSchema]),
  text: z.string(),
  occurrences: z.array(z.union([pdfOccurrence, flowOccurrence])),
  count: z.int(),
});

export const cropOutput = z.looseObject({
  page: z.int(),
  dpi: z.number(),
  widthPx: z.int(),
  heightPx: z.int(),
  box,
  transform: z.looseObject({ cropBox: box }),
  anchor: z.looseObject({ kind: z.enum(["equation", "figure"]), label: z.string() }).optional(),
});

/** An object of `fields` for each reason, with that reason's one verdict, told apart by `reason`. */
function pairedByReason(fields: z.ZodRawShape) {
  return z.discriminatedUnion(
    "reason",
    REASONS.map((reason) =>
      z.looseObject({ ...fields, verdict: z.literal(REASON_VERDICTS[reason]), reason: z.literal(reason) }),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]],
  );
}

/** A citation of a draft: a verdict and reason of the evidence checks, paired as they are there. */
const textCitation = pairedByReason({
  kind: z.string(),
  anchor: z.string().nullable(),
  written: z.string().nullable(),
  quote: z.string().nullable(),
  message: z.string(),
  pool: z.string().nullable(),
  line: z.int(),
  evidence: z.looseObject({}),
});

/** check_text against one source (a PDF or a flow source). */
export const textCheckOutput = z.looseObject({
  document: sourceDocumentSchema,
  citations: z.array(textCitation),
  unsupported_forms: z.array(z.looseObject({ written: z.string(), line: z.int() })),
  dropped_quotations: z.array(z.looseObject({ text: z.string(), line: z.int() })),
  summary: z.looseObject({
    citations: z.int(),
    ...Object.fromEntries(VERDICTS.filter((v) => v !== "UNANCHORED").map((v) => [v, z.int()])),
    unanchored: z.int(),
  }),
});

/** A citation of a draft resolved through its bibliography, its verdict paired with its reason. */
const bibCitation = pairedByReason({
  key: z.string().nullable(),
  entry: z.string().nullable(),
  anchor: z.string().nullable(),
  quote: z.string().nullable(),
  message: z.string(),
  line: z.int(),
  column: z.int(),
  source: z.looseObject({}).nullable(),
  evidence: z.looseObject({}),
});

/** check_text with a bibliography: the draft's sources, each citation checked against its entry's. */
const bibliographyCheckOutput = z.looseObject({
  draft: z.looseObject({ kind: z.string() }),
  bibliography: z.looseObject({ format: z.string(), entries: z.int(), problems: z.array(z.looseObject({})) }),
  sources: z.array(
    z.looseObject({
      sha256: z.string().nullable(),
      kind: z.string().nullable(),
      pages: z.int().nullable(),
      citations: z.int(),
    }),
  ),
  citations: z.array(bibCitation),
  summary: z.looseObject({
    citations: z.int(),
    PASS: z.int(),
    FLAG: z.int(),
    FAIL: z.int(),
    unanchored: z.int(),
  }),
  not_verified: z.string(),
});

/** `check_text`: against one source, or through a bibliography. */
export const checkTextOutput = z.union([textCheckOutput, bibliographyCheckOutput]);

const citeResult = z.discriminatedUnion(
  "reason",
  CITE_REASONS.map((reason) =>
    z.looseObject({
      id: z.string().optional(),
      verdict: z.literal(CITE_REASON_VERDICT[reason]),
      reason: z.literal(reason),
      message: z.string(),
      page: z.int(),
      source_sha256: z.string(),
      locations: z.array(
        z.looseObject({
          text: z.string(),
          start_utf16: z.int(),
          end_utf16: z.int(),
          boxes: z.array(z.looseObject({})),
          geometry_level: z.string(),
        }),
      ),
      evidence_layer: z.looseObject({ kind: z.enum(["native_text", "ocr"]) }).nullable(),
    }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
);

export const citeCheckOutput = z.looseObject({
  operation: z.literal("cite_check"),
  source: z.looseObject({
    origin: z.string(),
    sha256: z.string(),
    pages: z.int().nullable(),
    bytes: z.int(),
  }),
  options: z.looseObject({}),
  results: z.array(citeResult),
  summary: z.object(Object.fromEntries(CITE_VERDICTS.map((v) => [v, z.int()]))),
  output_chars: z.int(),
});

/**
 * `verify_citations`: verify's document, each result with the citation's index and place in the
 * input, and the citations of other documents skipped.
 */
export const verifyCitationsOutput = z.looseObject({
  document: sourceDocumentSchema,
  results: z.array(z.intersection(checkResultSchema, z.looseObject({ index: z.int(), at: z.string() }))),
  skipped: z.array(z.looseObject({ index: z.int(), at: z.string(), documentIndex: z.int() })),
});

/** `report`: the verify document (a PDF's, or a flow source's) with the report written. */
export const reportOutput = z.looseObject({
  document: sourceDocumentSchema,
  results: z.array(checkResultSchema),
  report: z.strictObject({
    path: z.string(),
    bytes: z.int().nonnegative(),
    images: z
      .strictObject({ folder: z.string(), files: z.int().nonnegative(), bytes: z.int().nonnegative() })
      .optional(),
  }),
});

/** `run new`: the run created. */
export const runNewOutput = z.strictObject({
  run_dir: z.string(),
  run_id: z.string(),
  created_at: z.string(),
  library_root: z.string(),
  gate: z.boolean(),
});

/** `run report`: the reports written from a run's result. */
export const runReportOutput = z.strictObject({
  run_id: z.string(),
  result_sha256: z.string(),
  report_md: z.string().nullable(),
  report_html: z.string().nullable(),
  accepted: z.int().nonnegative(),
  unresolved: z.int().nonnegative(),
  crops: z.int().nonnegative(),
});
